//! People for tests: staff users created through the API, who set their password through the
//! e-mailed link (the SMTP sink) and sign in.

use serde_json::{Value, json};

use crate::server::TestApp;
use crate::smtp::SmtpSink;

pub const GOOD_PASSWORD: &str = "Tulip-Harbour-Quartz-71";

/// The token of the set-password link in the newest e-mail to `email`.
pub async fn link_token(smtp: &SmtpSink, email: &str) -> String {
    smtp.wait_for(email, "Signet").await;
    let message = smtp.messages().into_iter().rev().find(|m| m["to"][0] == email).expect("mail");
    let text = message["text"].as_str().expect("text");
    let link = text.split_whitespace().find(|w| w.contains("/account/password?token=")).expect("a link");
    link.split("token=").nth(1).expect("token").to_string()
}

pub async fn login(app: &TestApp, email: &str, password: &str) -> reqwest::Response {
    let body = json!({"grant_type": "password", "username": email, "password": password});
    app.client.post(app.url("/api/v1/auth/token")).json(&body).send().await.expect("token")
}

pub async fn set_password(app: &TestApp, token: &str, password: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/v1/auth/password"))
        .json(&json!({"token": token, "password": password}))
        .send()
        .await
        .expect("set password")
}

/// A staff user with `role_id`, their password set through the e-mailed link; answers their
/// id and access token.
pub async fn signed_in_user(app: &TestApp, smtp: &SmtpSink, admin: &str, email: &str, role_id: i64) -> (i64, String) {
    let created = app.post("/api/v1/users", admin, json!({"name": email, "EmailID": email, "roleId": role_id})).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    let token = link_token(smtp, email).await;
    assert_eq!(set_password(app, &token, GOOD_PASSWORD).await.status(), 204);
    let tokens: Value = login(app, email, GOOD_PASSWORD).await.json().await.expect("json");
    (created["subscriberId"].as_i64().expect("id"), tokens["access_token"].as_str().expect("access").to_string())
}

/// The code an authenticator app shows for `secret` (base32) `offset` steps from now,
/// computed by Python's standard library (an implementation of RFC 6238 that is not ours).
pub fn authenticator_code(secret: &str, offset: i64) -> String {
    let script = "import base64,hmac,hashlib,struct,time,sys\n\
s=sys.argv[1]; k=base64.b32decode(s+'='*(-len(s)%8)); c=int(time.time())//30+int(sys.argv[2])\n\
h=hmac.new(k,struct.pack('>Q',c),hashlib.sha1).digest(); o=h[-1]&15\n\
print('%06d'%((struct.unpack('>I',h[o:o+4])[0]&0x7fffffff)%1000000))";
    let output = std::process::Command::new("python3")
        .args(["-c", script, secret, &offset.to_string()])
        .output()
        .expect("python3");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// Posts the sign-in page's form as a browser would: opens `/account/sign-in` for its cookie
/// and CSRF token, then sends `fields` beside them, from `from` (an `X-Forwarded-For`
/// address) when given. The status and the page answered.
pub async fn post_sign_in_page(app: &TestApp, from: Option<&str>, fields: &[(&str, &str)]) -> (u16, String) {
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let page = http.get(app.url("/account/sign-in?return_to=/healthz&state=s")).send().await.expect("page");
    let cookie = page.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("pair").to_string();
    let html = page.text().await.expect("html");
    let csrf = html.split("name=\"csrf\" value=\"").nth(1).and_then(|r| r.split('"').next()).expect("csrf");
    let mut form = vec![("csrf", csrf), ("return_to", "/healthz"), ("state", "s")];
    form.extend_from_slice(fields);
    let mut request = http.post(app.url("/account/sign-in")).header("cookie", cookie).form(&form);
    if let Some(from) = from {
        request = request.header("x-forwarded-for", from);
    }
    let answer = request.send().await.expect("sign in");
    (answer.status().as_u16(), answer.text().await.expect("html"))
}
