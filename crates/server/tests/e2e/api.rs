//! The JSON API end to end, against a real server, on both database backends.

use aws_lc_rs::signature::Ed25519KeyPair;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn, spawn_with};

on_both_backends!(
    client_credentials_and_password_grants_issue_working_tokens,
    bad_credentials_are_refused_without_revealing_which_part_was_wrong,
    refresh_tokens_rotate_and_reuse_revokes_the_session,
    revoking_sessions_or_disabling_a_user_kills_access_tokens_at_once,
    forged_expired_and_misaddressed_tokens_are_refused,
    departments_crud_paging_and_search,
    department_input_is_validated,
    other_tenants_ids_answer_404_and_change_nothing,
    every_change_is_in_an_intact_audit_chain,
    token_endpoints_are_rate_limited_per_address_and_per_account,
    operations_endpoints_answer,
    an_unreachable_blob_store_is_a_503_with_retry_after_and_not_ready,
    the_specs_field_constraints_are_refused_with_a_400_naming_the_field,
);

async fn client_credentials_and_password_grants_issue_working_tokens(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;

    let form = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", tenant.client_id.as_str()),
            ("client_secret", tenant.client_secret.as_str()),
        ])
        .send()
        .await
        .expect("form");
    assert_eq!(form.status(), 200);
    let body: Value = form.json().await.expect("json");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 900);
    assert!(body["refresh_token"].as_str().is_some_and(|t| t.len() >= 43));
    let token = body["access_token"].as_str().expect("token");
    assert_eq!(app.get("/api/v1/departments", token).await.status(), 200);

    let password = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"grant_type": "password", "username": tenant.admin_email.to_uppercase(), "password": "correct horse battery"}))
        .send()
        .await
        .expect("password");
    assert_eq!(password.status(), 200);
    let body: Value = password.json().await.expect("json");
    let user_token = body["access_token"].as_str().expect("token");
    assert_eq!(app.get("/api/v1/departments", user_token).await.status(), 200);

    let jwks: Value = app
        .client
        .get(app.url("/api/v1/.well-known/jwks.json"))
        .send()
        .await
        .expect("jwks")
        .json()
        .await
        .expect("json");
    assert_eq!(jwks["keys"][0]["kty"], "OKP");
    assert_eq!(jwks["keys"][0]["alg"], "EdDSA");
}

async fn bad_credentials_are_refused_without_revealing_which_part_was_wrong(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let token = |body: Value| app.client.post(app.url("/api/v1/auth/token")).json(&body).send();

    let wrong_secret =
        token(json!({"grant_type": "client_credentials", "client_id": tenant.client_id, "client_secret": "nope"}));
    let unknown_client =
        token(json!({"grant_type": "client_credentials", "client_id": "sgc_nobody", "client_secret": "nope"}));
    let a = expect_problem(wrong_secret.await.expect("send"), 401, "invalid_client").await;
    let b = expect_problem(unknown_client.await.expect("send"), 401, "invalid_client").await;
    assert_eq!(a["detail"], b["detail"]);

    let wrong_password = token(json!({"grant_type": "password", "username": tenant.admin_email, "password": "wrong"}));
    let unknown_user = token(json!({"grant_type": "password", "username": "ghost@nowhere.test", "password": "wrong"}));
    let a = expect_problem(wrong_password.await.expect("send"), 400, "invalid_grant").await;
    let b = expect_problem(unknown_user.await.expect("send"), 400, "invalid_grant").await;
    assert_eq!(a["detail"], b["detail"]);

    expect_problem(token(json!({"grant_type": "implicit"})).await.expect("send"), 400, "unsupported_grant_type").await;
    let missing =
        expect_problem(token(json!({"grant_type": "password"})).await.expect("send"), 400, "validation_failed").await;
    assert!(missing["errors"]["username"].is_array());
    let text = app.client.post(app.url("/api/v1/auth/token")).body("grant_type=password").send().await.expect("send");
    expect_problem(text, 415, "unsupported_media_type").await;
    let broken = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .header("content-type", "application/json")
        .body("{\"grant_type\": ")
        .send()
        .await
        .expect("send");
    expect_problem(broken, 400, "malformed_body").await;
}

async fn refresh(app: &TestApp, refresh_token: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/v1/auth/refresh"))
        .json(&json!({"refresh_token": refresh_token}))
        .send()
        .await
        .expect("refresh")
}

async fn session(app: &TestApp, tenant: &signet_server::provision::ProvisionedTenant) -> (String, String) {
    let body: Value = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"grant_type": "password", "username": tenant.admin_email, "password": "correct horse battery"}))
        .send()
        .await
        .expect("login")
        .json()
        .await
        .expect("json");
    (
        body["access_token"].as_str().expect("access").to_string(),
        body["refresh_token"].as_str().expect("refresh").to_string(),
    )
}

async fn refresh_tokens_rotate_and_reuse_revokes_the_session(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let (_, first) = session(&app, &tenant).await;

    let rotated = refresh(&app, &first).await;
    assert_eq!(rotated.status(), 200);
    let body: Value = rotated.json().await.expect("json");
    let second = body["refresh_token"].as_str().expect("refresh").to_string();
    assert_ne!(first, second);
    assert_eq!(app.get("/api/v1/departments", body["access_token"].as_str().expect("access")).await.status(), 200);

    // Presenting the spent token again is treated as theft: the whole family dies.
    expect_problem(refresh(&app, &first).await, 400, "invalid_grant").await;
    expect_problem(refresh(&app, &second).await, 400, "invalid_grant").await;
    expect_problem(refresh(&app, "made-up").await, 400, "invalid_grant").await;

    // RFC 7009 revocation ends a family; unknown tokens are answered 200 as well.
    let (_, third) = session(&app, &tenant).await;
    let revoke = |token: String| app.client.post(app.url("/api/v1/auth/revoke")).form(&[("token", token)]).send();
    assert_eq!(revoke(third.clone()).await.expect("revoke").status(), 200);
    assert_eq!(revoke("unknown".into()).await.expect("revoke").status(), 200);
    expect_problem(refresh(&app, &third).await, 400, "invalid_grant").await;

    // The refresh grant also works through /auth/token, with a form body.
    let (_, fourth) = session(&app, &tenant).await;
    let via_token = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .form(&[("grant_type", "refresh_token"), ("refresh_token", fourth.as_str())])
        .send()
        .await
        .expect("send");
    assert_eq!(via_token.status(), 200);
}

async fn revoking_sessions_or_disabling_a_user_kills_access_tokens_at_once(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let (access, refresh_token) = session(&app, &tenant).await;
    let (other_access, _) = session(&app, &tenant).await;
    let client_token = app.token(&tenant).await;

    let revoked =
        app.client.post(app.url("/api/v1/auth/sessions/revoke")).bearer_auth(&access).send().await.expect("send");
    assert_eq!(revoked.status(), 204);
    expect_problem(app.get("/api/v1/departments", &access).await, 401, "invalid_token").await;
    expect_problem(app.get("/api/v1/departments", &other_access).await, 401, "invalid_token").await;
    expect_problem(refresh(&app, &refresh_token).await, 400, "invalid_grant").await;
    // Other principals of the tenant are not affected.
    assert_eq!(app.get("/api/v1/departments", &client_token).await.status(), 200);

    // Disabling: the new session dies at once and no new login is possible.
    let (fresh, _) = session(&app, &tenant).await;
    assert_eq!(app.get("/api/v1/departments", &fresh).await.status(), 200);
    let actor = signet_domain::audit::Actor::system();
    app.store.end_sessions(tenant.tenant_id, tenant.admin_user_id, "new-stamp", true, &actor).await.expect("disable");
    expect_problem(app.get("/api/v1/departments", &fresh).await, 401, "invalid_token").await;
    let login = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"grant_type": "password", "username": tenant.admin_email, "password": "correct horse battery"}))
        .send()
        .await
        .expect("send");
    expect_problem(login, 400, "invalid_grant").await;
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn claims(app: &TestApp, tid: i64, aud: &str, exp: u64, stamp: &str) -> Value {
    let _ = app;
    json!({"iss": "signet", "aud": aud, "sub": "client:2", "tid": tid, "exp": exp, "iat": unix_now(), "nbf": unix_now(), "jti": "x", "typ": "access", "stamp": stamp})
}

async fn forged_expired_and_misaddressed_tokens_are_refused(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let real = app.token(&tenant).await;
    let server_key = app.store.signing_key("jwt-access").await.expect("key").expect("row");
    let server_encoding = EncodingKey::from_ed_der(&server_key.private_der);
    let stamp = app
        .store
        .principal_auth(tenant.tenant_id, signet_domain::PrincipalId::from(2))
        .await
        .expect("auth")
        .map(|p| p.security_stamp)
        .unwrap_or_default();
    let sign = |claims: &Value, key: &EncodingKey| {
        jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), claims, key).expect("encode")
    };

    let expect_401 = |token: String, code: &'static str| {
        let app = &app;
        async move { expect_problem(app.get("/api/v1/departments", &token).await, 401, code).await }
    };
    // Control: a token made the same way with the right claims works.
    let good = sign(&claims(&app, tenant.tenant_id.get(), "signet-api", unix_now() + 60, &stamp), &server_encoding);
    assert_eq!(app.get("/api/v1/departments", &good).await.status(), 200);

    expect_401(String::new(), "invalid_token").await;
    let missing = app.client.get(app.url("/api/v1/departments")).send().await.expect("send");
    expect_problem(missing, 401, "unauthenticated").await;
    expect_401("garbage".into(), "invalid_token").await;
    expect_401(
        sign(&claims(&app, tenant.tenant_id.get(), "signet-api", unix_now() - 3600, &stamp), &server_encoding),
        "invalid_token",
    )
    .await;
    expect_401(
        sign(&claims(&app, tenant.tenant_id.get(), "another-api", unix_now() + 60, &stamp), &server_encoding),
        "invalid_token",
    )
    .await;
    let other_key = Ed25519KeyPair::generate().expect("key").to_pkcs8().expect("pkcs8");
    let forged = sign(
        &claims(&app, tenant.tenant_id.get(), "signet-api", unix_now() + 60, &stamp),
        &EncodingKey::from_ed_der(other_key.as_ref()),
    );
    expect_401(forged, "invalid_token").await;
    let hmac = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims(&app, tenant.tenant_id.get(), "signet-api", unix_now() + 60, &stamp),
        &EncodingKey::from_secret(&server_key.public_raw),
    )
    .expect("hmac");
    expect_401(hmac, "invalid_token").await;

    // alg:none: the real token's claims with the signature removed.
    use base64::Engine;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let payload = real.split('.').nth(1).expect("payload");
    let none = format!("{}.{payload}.", engine.encode(br#"{"alg":"none","typ":"JWT"}"#));
    expect_401(none, "invalid_token").await;
    // The right key but a token for a tenant the principal is not in.
    let wrong_tenant =
        sign(&claims(&app, tenant.tenant_id.get() + 1, "signet-api", unix_now() + 60, &stamp), &server_encoding);
    expect_401(wrong_tenant, "invalid_token").await;
}

async fn departments_crud_paging_and_search(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let token = app.token(&tenant).await;

    let created = app.post("/api/v1/departments", &token, json!({"departmentName": "  Legal  "})).await;
    assert_eq!(created.status(), 201);
    let location = created.headers().get("location").and_then(|v| v.to_str().ok()).expect("location").to_string();
    let legal: Value = created.json().await.expect("json");
    assert_eq!(legal["departmentName"], "Legal");
    let id = legal["departmentID"].as_i64().expect("id");
    assert_eq!(location, format!("/api/v1/departments/{id}"));

    let fetched: Value = app.get(&location, &token).await.json().await.expect("json");
    assert_eq!(fetched, legal);

    let renamed = app.put(&location, &token, json!({"departmentName": "Legal & Compliance"})).await;
    assert_eq!(renamed.status(), 200);
    assert_eq!(renamed.json::<Value>().await.expect("json")["departmentName"], "Legal & Compliance");

    for i in 0..25 {
        let name = format!("Team {i:02}");
        assert_eq!(app.post("/api/v1/departments", &token, json!({"departmentName": name})).await.status(), 201);
    }
    let page: Value = app.get("/api/v1/departments?pageNumber=2&pageSize=10", &token).await.json().await.expect("json");
    assert_eq!(page["totalCount"], 26);
    assert_eq!(page["items"].as_array().map(Vec::len), Some(10));
    assert_eq!(page["pageNumber"], 2);
    let search: Value = app.get("/api/v1/departments?searchText=team%201", &token).await.json().await.expect("json");
    assert_eq!(search["totalCount"], 10, "Team 10..19");
    let last: Value = app.get("/api/v1/departments?pageNumber=3&pageSize=10", &token).await.json().await.expect("json");
    assert_eq!(last["items"].as_array().map(Vec::len), Some(6));

    assert_eq!(app.delete(&location, &token).await.status(), 204);
    expect_problem(app.get(&location, &token).await, 404, "not_found").await;
    expect_problem(app.delete(&location, &token).await, 404, "not_found").await;

    let ids: Vec<i64> =
        page["items"].as_array().expect("items").iter().filter_map(|d| d["departmentID"].as_i64()).collect();
    let bulk = app.post("/api/v1/departments/bulk-delete", &token, json!({"departmentIds": ids})).await;
    assert_eq!(bulk.status(), 204);
    let single = app.post("/api/v1/departments/delete", &token, json!({"departmentId": ids[0]})).await;
    expect_problem(single, 404, "not_found").await;
    let remaining: Value = app.get("/api/v1/departments", &token).await.json().await.expect("json");
    assert_eq!(remaining["totalCount"], 15);
}

async fn department_input_is_validated(backend: Backend) {
    let app = spawn_with(backend, |c| c.max_body_bytes = 4096).await;
    let tenant = app.tenant("Acme").await;
    let token = app.token(&tenant).await;
    let post = |body: Value| app.post("/api/v1/departments", &token, body);

    let empty = expect_problem(post(json!({"departmentName": "   "})).await, 400, "validation_failed").await;
    assert!(empty["errors"]["departmentName"].is_array());
    expect_problem(post(json!({})).await, 400, "validation_failed").await;
    expect_problem(post(json!({"departmentName": "x".repeat(101)})).await, 400, "validation_failed").await;
    expect_problem(post(json!({"departmentName": "a\u{0}b"})).await, 400, "validation_failed").await;
    expect_problem(post(json!({"departmentName": "Ok", "departmentID": 5})).await, 400, "validation_failed").await;
    expect_problem(post(json!({"departmentName": 12})).await, 400, "validation_failed").await;
    expect_problem(post(json!(["Legal"])).await, 400, "validation_failed").await;

    assert_eq!(post(json!({"departmentName": "Sales"})).await.status(), 201);
    expect_problem(post(json!({"departmentName": "SALES"})).await, 409, "department_name_taken").await;

    let raw = |content_type: &'static str, body: String| {
        app.client
            .post(app.url("/api/v1/departments"))
            .bearer_auth(&token)
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    expect_problem(raw("application/json", "{\"departmentName\":".into()).await.expect("send"), 400, "malformed_body")
        .await;
    expect_problem(raw("text/plain", "{}".into()).await.expect("send"), 415, "unsupported_media_type").await;
    let huge = format!("{{\"departmentName\": \"{}\"}}", "y".repeat(10_000));
    expect_problem(raw("application/json", huge).await.expect("send"), 413, "payload_too_large").await;

    expect_problem(app.get("/api/v1/departments/abc", &token).await, 400, "validation_failed").await;
    expect_problem(app.get("/api/v1/departments/99999999999", &token).await, 404, "not_found").await;
    expect_problem(app.get("/api/v1/departments/-1", &token).await, 404, "not_found").await;
    expect_problem(app.get("/api/v1/departments?pageSize=1000", &token).await, 400, "validation_failed").await;
    expect_problem(app.get("/api/v1/departments?pageNumber=x", &token).await, 400, "validation_failed").await;
    let bulk_empty = app.post("/api/v1/departments/bulk-delete", &token, json!({"departmentIds": []})).await;
    expect_problem(bulk_empty, 400, "validation_failed").await;
    expect_problem(app.get("/api/v1/nothing-here", &token).await, 404, "route_not_found").await;
    let patch = app.client.patch(app.url("/api/v1/departments")).bearer_auth(&token).send().await.expect("send");
    expect_problem(patch, 405, "method_not_allowed").await;
}

async fn other_tenants_ids_answer_404_and_change_nothing(backend: Backend) {
    let app = spawn(backend).await;
    let (acme, globex) = (app.tenant("Acme").await, app.tenant("Globex").await);
    let (a, b) = (app.token(&acme).await, app.token(&globex).await);
    let legal: Value =
        app.post("/api/v1/departments", &a, json!({"departmentName": "Legal"})).await.json().await.expect("json");
    let id = legal["departmentID"].as_i64().expect("id");
    let path = format!("/api/v1/departments/{id}");

    let body = expect_problem(app.get(&path, &b).await, 404, "not_found").await;
    assert!(!body.to_string().contains("Legal"), "no data of the other tenant");
    expect_problem(app.put(&path, &b, json!({"departmentName": "Taken"})).await, 404, "not_found").await;
    expect_problem(app.delete(&path, &b).await, 404, "not_found").await;
    let mine: Value =
        app.post("/api/v1/departments", &b, json!({"departmentName": "Legal"})).await.json().await.expect("json");
    let bulk =
        app.post("/api/v1/departments/bulk-delete", &b, json!({"departmentIds": [mine["departmentID"], id]})).await;
    expect_problem(bulk, 404, "not_found").await;

    let listing: Value = app.get("/api/v1/departments", &b).await.json().await.expect("json");
    assert_eq!(listing["totalCount"], 1, "B sees only its own, which the failed bulk call kept");
    let still: Value = app.get(&path, &a).await.json().await.expect("json");
    assert_eq!(still["departmentName"], "Legal");
}

async fn every_change_is_in_an_intact_audit_chain(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let token = app.token(&tenant).await;
    let created: Value =
        app.post("/api/v1/departments", &token, json!({"departmentName": "Legal"})).await.json().await.expect("json");
    let path = format!("/api/v1/departments/{}", created["departmentID"]);
    app.put(&path, &token, json!({"departmentName": "Law"})).await;
    app.delete(&path, &token).await;

    let entries: Value = app.get("/api/v1/audit", &token).await.json().await.expect("json");
    let actions: Vec<&str> = entries.as_array().expect("array").iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, ["tenant.created", "department.created", "department.renamed", "department.deleted"]);
    let created_entry = &entries[1];
    assert_eq!(created_entry["actor"], "client:2");
    assert_eq!(created_entry["ip"], "127.0.0.1");
    assert_eq!(created_entry["prevHash"], entries[0]["hash"]);

    let verdict: Value = app.get("/api/v1/audit/verify", &token).await.json().await.expect("json");
    assert_eq!(verdict["intact"], true);
    assert_eq!(verdict["entries"], 4);
    app.store.execute_for_tests("UPDATE audit_log SET detail = '{}' WHERE seq = 3").await.expect("tamper");
    let verdict: Value = app.get("/api/v1/audit/verify", &token).await.json().await.expect("json");
    assert_eq!(verdict["intact"], false);
    assert_eq!(verdict["brokenAt"], 3);
}

async fn token_endpoints_are_rate_limited_per_address_and_per_account(backend: Backend) {
    let app = spawn_with(backend, |c| {
        c.auth_rate_limit_per_minute = 1000;
        c.account_failure_limit = 3;
        c.account_failure_delay_ms = 60_000;
        c.trusted_proxies = vec![std::net::IpAddr::from([127, 0, 0, 1])];
    })
    .await;
    let tenant = app.tenant("Acme").await;
    let attempt_from = |from: &'static str, secret: &str| {
        app.client
            .post(app.url("/api/v1/auth/token"))
            .header("x-forwarded-for", from)
            .json(&json!({"grant_type": "client_credentials", "client_id": tenant.client_id, "client_secret": secret}))
            .send()
    };
    let attacker = "203.0.113.66";
    for _ in 0..3 {
        expect_problem(attempt_from(attacker, "wrong").await.expect("send"), 401, "invalid_client").await;
    }
    // The account is now throttled from that address: even the right secret is refused there
    // until the delay has passed.
    let throttled = attempt_from(attacker, &tenant.client_secret).await.expect("send");
    let retry_after: u64 = throttled
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!(retry_after >= 1);
    expect_problem(throttled, 429, "rate_limited").await;
    // The owner at another address is not locked out by the attacker's failures.
    let owner = attempt_from("198.51.100.20", &tenant.client_secret).await.expect("send");
    assert_eq!(owner.status(), 200);

    let per_ip = spawn_with(backend, |c| c.auth_rate_limit_per_minute = 2).await;
    let send = || per_ip.client.post(per_ip.url("/api/v1/auth/token")).json(&json!({"grant_type": "x"})).send();
    expect_problem(send().await.expect("send"), 400, "unsupported_grant_type").await;
    expect_problem(send().await.expect("send"), 400, "unsupported_grant_type").await;
    let limited = send().await.expect("send");
    assert!(limited.headers().contains_key("retry-after"));
    expect_problem(limited, 429, "rate_limited").await;
}

async fn operations_endpoints_answer(backend: Backend) {
    let app = spawn(backend).await;
    let health = app.client.get(app.url("/healthz")).send().await.expect("healthz");
    assert_eq!(health.status(), 200);
    let ready = app.client.get(app.url("/readyz")).header("x-request-id", "trace-me-42").send().await.expect("readyz");
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.headers().get("x-request-id").and_then(|v| v.to_str().ok()), Some("trace-me-42"));
    let unknown = app.client.get(app.url("/api/v1/nope")).header("x-request-id", "abc-123").send().await.expect("send");
    let body = expect_problem(unknown, 404, "route_not_found").await;
    assert_eq!(body["requestId"], "abc-123");
    assert_eq!(body["instance"], "/api/v1/nope");
    let metrics = app.client.get(app.url("/metrics")).send().await.expect("metrics").text().await.expect("text");
    assert!(metrics.contains("http_requests_total"), "{metrics}");
    assert!(metrics.contains("route=\"/readyz\""), "{metrics}");
    assert!(metrics.contains("http_request_duration_seconds_bucket"), "{metrics}");
    let docs = app.client.get(app.url("/api/docs")).send().await.expect("docs");
    assert_eq!(docs.status(), 200);
    let csp = docs.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    assert!(csp.contains("script-src 'self'") && !csp.contains("http"), "{csp}");
    let html = docs.text().await.expect("html");
    assert!(html.contains("<html"));
    // Works offline: no other host is referenced, and the viewer's script is served here.
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"), "{html}");
    assert!(html.contains(r#"src="/api/docs/assets/scalar.js""#), "{html}");
    // Nothing that sends the description to a third party: no "Ask AI" agent, no developer
    // toolbar ("Share", "Deploy"), no hosted client.
    for off in [r#""showDeveloperTools":"never""#, r#""agent":{"disabled":true}"#, r#""hideClientButton":true"#] {
        assert!(html.contains(off), "{off} in {html}");
    }
    let script = app.client.get(app.url("/api/docs/assets/scalar.js")).send().await.expect("script");
    assert_eq!(script.status(), 200);
    assert!(script.headers()["content-type"].to_str().unwrap_or("").starts_with("text/javascript"));
    let script = script.text().await.expect("js");
    assert!(script.len() > 1_000_000 && script.contains("@scalar/api-reference"));
}

/// Issue 38: with the blob store away the instance says it is not ready (a hung S3 within the
/// check's bound, not never), and a call that needs the store is a 503 with `Retry-After`, not
/// a 500. The hung server is a listener that never accepts: connections complete in the
/// kernel's backlog and nothing ever answers.
async fn an_unreachable_blob_store_is_a_503_with_retry_after_and_not_ready(backend: Backend) {
    use base64::Engine as _;
    let s3_url = |port: u16| {
        format!("s3://bucket?endpoint=http://127.0.0.1:{port}&allow_http=true&access_key_id=k&secret_access_key=s")
    };
    let hung = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let hung_port = hung.local_addr().expect("addr").port();
    let app = spawn_with(backend, |config| config.blob_url = Some(s3_url(hung_port))).await;
    let ready = app.client.get(app.url("/readyz")).send().await.expect("readyz");
    assert_eq!(ready.status(), 503);
    assert!(ready.headers().contains_key("retry-after"));
    let body = expect_problem(ready, 503, "service_unavailable").await;
    assert!(body["detail"].as_str().unwrap_or("").contains("blob store"), "{body}");
    drop(app);

    // Nothing listens on a closed port: refused at once.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let app = spawn_with(backend, |config| config.blob_url = Some(s3_url(closed))).await;
    assert_eq!(app.client.get(app.url("/readyz")).send().await.expect("readyz").status(), 503);
    let tenant = app.tenant("Outage Bank").await;
    let token = app.token(&tenant).await;
    let pdf = base64::engine::general_purpose::STANDARD.encode(signet_testkit::pdf::one_page("Loan"));
    let upload = app.post("/api/v1/documents", &token, json!({"documentName": "Loan.pdf", "fileData": pdf})).await;
    assert_eq!(upload.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("2"));
    expect_problem(upload, 503, "service_unavailable").await;
    drop(hung);
}

on_both_backends!(gateway_authtokens_are_shown_once_listed_and_revoked, gateway_settings_are_validated_and_saved);

async fn gateway_authtokens_are_shown_once_listed_and_revoked(backend: Backend) {
    let app = spawn(backend).await;
    let (acme, globex) = (app.tenant("Acme").await, app.tenant("Globex").await);
    let (a, b) = (app.token(&acme).await, app.token(&globex).await);
    let created = app.post("/api/v1/gateway/authtokens", &a, json!({"label": "ERP"})).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    let value = created["authtoken"].as_str().expect("token value").to_string();
    assert!(value.starts_with("sga_") && value.len() > 40);
    let id = created["id"].as_i64().expect("id");
    let hash = signet_server::secrets::hash_token(&value);
    assert_eq!(app.store.authtoken_by_hash(&hash).await.expect("lookup"), Some((id.into(), acme.tenant_id)));

    let listed: Value = app.get("/api/v1/gateway/authtokens", &a).await.json().await.expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    assert!(listed[0].get("authtoken").is_none(), "the value is never shown again");
    assert!(!listed.to_string().contains(&value));
    let other: Value = app.get("/api/v1/gateway/authtokens", &b).await.json().await.expect("json");
    assert_eq!(other, json!([]));

    expect_problem(app.delete(&format!("/api/v1/gateway/authtokens/{id}"), &b).await, 404, "not_found").await;
    assert_eq!(app.delete(&format!("/api/v1/gateway/authtokens/{id}"), &a).await.status(), 204);
    assert_eq!(app.store.authtoken_by_hash(&hash).await.expect("lookup"), None);
    expect_problem(app.post("/api/v1/gateway/authtokens", &a, json!({"label": ""})).await, 400, "validation_failed")
        .await;
    expect_problem(
        app.post("/api/v1/gateway/authtokens", &a, json!({"label": "x", "scope": 1})).await,
        400,
        "validation_failed",
    )
    .await;
}

async fn gateway_settings_are_validated_and_saved(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    let token = app.token(&tenant).await;
    let defaults: Value = app.get("/api/v1/gateway/settings", &token).await.json().await.expect("json");
    assert_eq!(
        defaults,
        json!({"fileTypes": ["PDF", "XML", "DATA", "HASH"], "signatureTypes": [2, 3, 4], "legacyProfileEnabled": true})
    );
    let saved = app
        .put(
            "/api/v1/gateway/settings",
            &token,
            json!({"fileTypes": ["pdf", "PDF", "hash"], "signatureTypes": [4], "legacyProfileEnabled": false}),
        )
        .await;
    assert_eq!(saved.status(), 200);
    let read: Value = app.get("/api/v1/gateway/settings", &token).await.json().await.expect("json");
    assert_eq!(read, json!({"fileTypes": ["HASH", "PDF"], "signatureTypes": [4], "legacyProfileEnabled": false}));
    let bad = app
        .put(
            "/api/v1/gateway/settings",
            &token,
            json!({"fileTypes": ["DOCX"], "signatureTypes": [4], "legacyProfileEnabled": true}),
        )
        .await;
    expect_problem(bad, 400, "validation_failed").await;
    let bad = app
        .put(
            "/api/v1/gateway/settings",
            &token,
            json!({"fileTypes": [], "signatureTypes": [9], "legacyProfileEnabled": true}),
        )
        .await;
    expect_problem(bad, 400, "validation_failed").await;
}

on_both_backends!(gateway_certificate_and_transaction_status_are_served, gateway_housekeeping_expires_and_purges);

/// A transaction as the gateway endpoint records it, made directly through the store.
async fn seed_transaction(app: &TestApp, tenant_id: signet_domain::TenantId, number: &str, reference: &str) -> String {
    let value = format!("sga_{}", signet_server::secrets::random_token(32));
    let hash = signet_server::secrets::hash_token(&value);
    let actor = signet_domain::audit::Actor::system();
    let token = app.store.create_authtoken(tenant_id, "ERP", &hash, "…", &actor).await.expect("token");
    let new = signet_store::NewTransaction {
        transaction_number: number,
        tenant_id,
        authtoken_id: token.id,
        reference_number: reference,
        file_type: "PDF",
        profile: 2,
        link_hash: "link",
        session_key: &[1u8; 32],
        request_json: "{}",
        payload_blob: None,
        store_result: true,
        success_url: "https://client.test/s",
        failure_url: "https://client.test/f",
        cancel_url: "https://client.test/c",
        expires_at: signet_domain::now_millis() + 60_000,
    };
    app.store.insert_transaction(&new).await.expect("transaction");
    value
}

async fn gateway_certificate_and_transaction_status_are_served(backend: Backend) {
    let app = spawn(backend).await;
    let der = app.client.get(app.url("/eMsecure/certificate.cer")).send().await.expect("cer");
    assert_eq!(der.status(), 200);
    let der = der.bytes().await.expect("bytes");
    let on_disk = std::fs::read(app.state.services.config.data_dir.join("keys/gateway.cer")).expect("keys/gateway.cer");
    assert_eq!(der.as_ref(), on_disk.as_slice());
    let parsed = signet_sigcrypto::pki::parse_cert(&der).expect("a DER X.509 certificate");
    let _ = parsed;
    let pem =
        app.client.get(app.url("/eMsecure/certificate.pem")).send().await.expect("pem").text().await.expect("text");
    assert!(pem.starts_with("-----BEGIN CERTIFICATE-----"));

    let (acme, globex) = (app.tenant("Acme").await, app.tenant("Globex").await);
    let authtoken = seed_transaction(&app, acme.tenant_id, "SGN-A-1", "REF-1").await;
    let other_token = seed_transaction(&app, globex.tenant_id, "SGN-B-1", "REF-9").await;
    let status = |token: &str, number: &str, reference: &str| {
        let url = app.url(&format!(
            "/api/TransactionStatusRequest?Authtoken={token}&Transactionnumber={number}&Referencenumber={reference}"
        ));
        let client = app.client.clone();
        async move { client.get(url).send().await.expect("send").json::<Value>().await.expect("json") }
    };
    let answer = status(&authtoken, "SGN-A-1", "REF-1").await;
    assert_eq!(
        answer,
        json!({"IsSuccess": true, "Messages": [], "Value": {"TransactionNumber": "SGN-A-1", "ReferenceNumber": "REF-1", "Status": "Initiated", "ErrorMessage": ""}})
    );
    assert_eq!(status("wrong", "SGN-A-1", "REF-1").await["Messages"], json!(["104: Invalid Authtoken"]));
    let foreign = status(&other_token, "SGN-A-1", "REF-1").await;
    assert_eq!((foreign["IsSuccess"].clone(), foreign["Value"].clone()), (json!(false), Value::Null));
    assert_eq!(status(&authtoken, "SGN-A-1", "REF-2").await["IsSuccess"], false);
    let missing: Value = app
        .client
        .get(app.url("/api/TransactionStatusRequest"))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    assert_eq!(missing["Messages"], json!(["107: Invalid parameters"]));

    let (a, b) = (app.token(&acme).await, app.token(&globex).await);
    let mine: Value = app.get("/api/v1/gateway/transactions/SGN-A-1", &a).await.json().await.expect("json");
    assert_eq!((mine["status"].as_str(), mine["referenceNumber"].as_str()), (Some("Initiated"), Some("REF-1")));
    expect_problem(app.get("/api/v1/gateway/transactions/SGN-A-1", &b).await, 404, "not_found").await;
}

async fn gateway_housekeeping_expires_and_purges(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Acme").await;
    seed_transaction(&app, tenant.tenant_id, "SGN-1", "R-1").await;
    let store = &app.store;
    // A finished transaction whose stored result is past its retention.
    let key = signet_blob::BlobKey::new(["tenant", "1", "gateway", "SGN-1"]).expect("key");
    app.state.services.blob.put(&key, bytes::Bytes::from_static(b"encrypted-result")).await.expect("put");
    let outcome = signet_store::TransactionOutcome {
        state: signet_domain::gateway::TransactionState::Completed,
        error_message: None,
        result_blob: Some(key.as_str()),
        result_expires_at: Some(signet_domain::now_millis() + 60_000),
        signature_level: None,
        detail: serde_json::Value::Null,
    };
    let actor = signet_domain::audit::Actor::system();
    assert!(store.finish_transaction(tenant.tenant_id, "SGN-1", &outcome, &actor).await.expect("finish"));
    let token = app.token(&tenant).await;
    let kept: Value = app.get("/api/v1/gateway/transactions/SGN-1", &token).await.json().await.expect("json");
    assert_eq!(kept["returnvalue"], "encrypted-result");
    assert_eq!(kept["status"], "Completed");

    store.execute_for_tests("UPDATE gateway_transactions SET result_expires_at = 1").await.expect("age the result");
    // An initiated transaction past its time.
    seed_transaction(&app, tenant.tenant_id, "SGN-2", "R-2").await;
    store
        .execute_for_tests("UPDATE gateway_transactions SET expires_at = 1 WHERE transaction_number = 'SGN-2'")
        .await
        .expect("age");

    signet_server::workers::gateway_housekeeping(store, &app.state.services.blob).await.expect("housekeeping");
    assert!(!app.state.services.blob.exists(&key).await.expect("exists"), "the stored result is deleted");
    let gone: Value = app.get("/api/v1/gateway/transactions/SGN-1", &token).await.json().await.expect("json");
    assert_eq!(gone["returnvalue"], Value::Null);
    let expired: Value = app.get("/api/v1/gateway/transactions/SGN-2", &token).await.json().await.expect("json");
    assert_eq!(expired["status"], "Expired");
}

/// Constraints the interface document puts on fields (issue 35, item 1): an attachment needs
/// its file name (`min 1`), a download's `referenceNo` is at most 200 characters, and the
/// set-password e-mail's `emailID` is an e-mail address. Each is a 400 naming the field, never
/// a silently renamed file or a 404.
async fn the_specs_field_constraints_are_refused_with_a_400_naming_the_field(backend: Backend) {
    use base64::Engine as _;
    let app = spawn(backend).await;
    let tenant = app.tenant("Contract Bank").await;
    let token = app.token(&tenant).await;
    let pdf = base64::engine::general_purpose::STANDARD.encode(signet_testkit::pdf::one_page("Loan"));
    let uploaded: Value = app
        .post("/api/v1/documents", &token, json!({"documentName": "Loan.pdf", "fileData": pdf}))
        .await
        .json()
        .await
        .expect("json");
    let workflow = |attachments: Value| {
        let mut body = json!({"templateId": 0, "documentIds": [uploaded["documentId"]],
            "signatories": [{"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha", "signingOrder": 1}]});
        body.as_object_mut().expect("object").extend(attachments.as_object().expect("object").clone());
        body
    };
    for (attachments, field) in [
        (
            json!({"listAttachmentDetails": [{"base64fileData": pdf, "documentName": ""}]}),
            "listAttachmentDetails[0].documentName",
        ),
        (
            json!({"signerAttachmentDetails": [{"base64FileData": pdf, "documentName": "  "}]}),
            "signerAttachmentDetails[0].documentName",
        ),
    ] {
        let problem = expect_problem(
            app.post("/api/v1/workflows", &token, workflow(attachments)).await,
            400,
            "validation_failed",
        )
        .await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let download = json!({"workflowid": 1, "referenceNo": "R".repeat(201)});
    let problem =
        expect_problem(app.post("/api/v1/documents/download", &token, download).await, 400, "validation_failed").await;
    assert!(problem["errors"]["referenceNo"].is_array(), "{problem}");
    for email in ["", "not-an-email"] {
        let problem = expect_problem(
            app.post("/api/v1/users/password-email", &token, json!({"emailID": email})).await,
            400,
            "validation_failed",
        )
        .await;
        assert!(problem["errors"]["emailID"].is_array(), "{email:?}: {problem}");
    }
    assert_eq!(
        app.get("/api/v1/workflows", &token).await.json::<Value>().await.expect("json")["totalCount"],
        0,
        "nothing was started"
    );
}
