//! The console as a browser without JavaScript reaches it: a cookie jar that follows no
//! redirect by itself, a session signed in through the sign-in page, and the form token
//! every console page carries.

use std::future::Future;

use reqwest::redirect::Policy;

use crate::problem::unescape;
use crate::server::TestApp;

/// A browser without JavaScript: follows nothing by itself, keeps the cookies it is given.
pub struct Browser {
    pub http: reqwest::Client,
    pub cookies: std::sync::Mutex<Vec<(String, String)>>,
}

impl Default for Browser {
    fn default() -> Browser {
        Browser::new()
    }
}

impl Browser {
    pub fn new() -> Browser {
        let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
        Browser { http, cookies: std::sync::Mutex::new(Vec::new()) }
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> reqwest::Response {
        let header =
            self.cookies.lock().expect("jar").iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
        let response = request.header("cookie", header).send().await.expect("request");
        let mut jar = self.cookies.lock().expect("jar");
        for set in response.headers().get_all("set-cookie") {
            let pair = set.to_str().expect("cookie").split(';').next().unwrap_or_default();
            let Some((name, value)) = pair.split_once('=') else { continue };
            jar.retain(|(k, _)| k != name);
            if !value.is_empty() {
                jar.push((name.to_string(), value.to_string()));
            }
        }
        response
    }

    pub async fn get(&self, url: String) -> reqwest::Response {
        self.send(self.http.get(url)).await
    }

    /// A form post; the form is encoded at once, so the answer's future borrows only the browser.
    pub fn post<'a>(&'a self, url: String, form: &[(&str, &str)]) -> impl Future<Output = reqwest::Response> + use<'a> {
        self.send(self.http.post(url).form(form))
    }
}

/// A console session made the way the browser makes it: the sign-in page's one-time code
/// handed to `/app/session` with the state cookie.
pub async fn console_session(app: &TestApp, email: &str, password: &str) -> Browser {
    let browser = Browser::new();
    let to_sign_in = browser.get(app.url("/app/workflows/1")).await;
    assert_eq!(to_sign_in.status(), 303);
    let sign_in = to_sign_in.headers()["location"].to_str().expect("location").to_string();
    assert!(sign_in.starts_with("/account/sign-in?return_to=%2Fapp%2Fsession"), "{sign_in}");
    let page = browser.get(app.url(&sign_in)).await.text().await.expect("html");
    let hidden = |name: &str| {
        let marker = format!("name=\"{name}\" value=\"");
        unescape(page.split(&marker).nth(1).and_then(|rest| rest.split('"').next()).unwrap_or_default())
    };
    let (csrf, return_to, state) = (hidden("csrf"), hidden("return_to"), hidden("state"));
    let form = [
        ("csrf", csrf.as_str()),
        ("return_to", return_to.as_str()),
        ("state", state.as_str()),
        ("action", "password"),
        ("email", email),
        ("password", password),
    ];
    let handed = browser.post(app.url("/account/sign-in"), &form).await;
    assert_eq!(handed.status(), 303, "{}", handed.text().await.unwrap_or_default());
    let session = handed.headers()["location"].to_str().expect("location").to_string();
    let started = browser.get(app.url(&session)).await;
    assert_eq!(started.status(), 303, "{}", started.text().await.unwrap_or_default());
    assert_eq!(started.headers()["location"], "/app/workflows/1");
    browser
}

pub fn csrf_of(html: &str) -> String {
    html.split("name=\"csrf\" value=\"").nth(1).and_then(|rest| rest.split('"').next()).expect("csrf").to_string()
}
