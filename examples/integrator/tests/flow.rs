//! The example integrator against a real Signet server: the user uploads a PDF to the app, the
//! browser (here reqwest, following the forms) goes to the gateway, the signer types a name,
//! the gateway posts the result back, and the app saves a signed PDF that pdfsig accepts.

use std::collections::HashMap;
use std::process::Command;

use reqwest::redirect::Policy;
use serde_json::{Value, json};
use signet_domain::audit::Actor;
use signet_server::App;
use signet_server::config::Config;

fn reportlab_pdf(dir: &std::path::Path) -> Vec<u8> {
    let path = dir.join("contract.pdf");
    let script = format!(
        "from reportlab.pdfgen import canvas\nc = canvas.Canvas({:?})\nc.drawString(72, 720, 'Loan contract')\nc.save()\n",
        path.display().to_string()
    );
    assert!(Command::new("python3").args(["-c", &script]).status().expect("python3").success(), "reportlab");
    std::fs::read(path).expect("pdf")
}

/// The action and hidden fields of a self-submitting form.
fn form_of(html: &str) -> (String, Vec<(String, String)>) {
    let unescape = |s: &str| {
        s.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    };
    let action = html.split("action=\"").nth(1).and_then(|r| r.split('"').next()).map(unescape).unwrap_or_default();
    let mut fields = Vec::new();
    for input in html.split("<input type=\"hidden\" ").skip(1) {
        let name = input.split("name=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
        let value = input.split("value=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
        fields.push((name.to_string(), unescape(value)));
    }
    (action, fields)
}

async fn start_signet(dir: &std::path::Path) -> (String, String) {
    let config = Config {
        data_dir: dir.to_path_buf(),
        listen: "127.0.0.1:0".into(),
        workers: false,
        gateway_key_bits: 2048,
        ..Config::default()
    };
    let app = App::build(config).await.expect("signet");
    let base = format!("http://{}", app.local_addr().expect("addr"));
    let store = app.store.clone();
    tokio::spawn(app.run(std::future::pending()));
    let tenant =
        signet_server::provision::create_tenant(&store, "Acme Bank", "admin@acme.test", None, &Actor::system())
            .await
            .expect("tenant");
    let http = reqwest::Client::new();
    let token: Value = http
        .post(format!("{base}/api/v1/auth/token"))
        .json(&json!({"grant_type": "client_credentials", "client_id": tenant.client_id, "client_secret": tenant.client_secret}))
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    let created: Value = http
        .post(format!("{base}/api/v1/gateway/authtokens"))
        .bearer_auth(token["access_token"].as_str().expect("access token"))
        .json(&json!({"label": "example integrator"}))
        .send()
        .await
        .expect("authtoken")
        .json()
        .await
        .expect("json");
    (base, created["authtoken"].as_str().expect("authtoken").to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_goes_through_the_gateway_and_comes_back_signed() {
    let signet_dir = tempfile::tempdir().expect("tmp");
    let out_dir = tempfile::tempdir().expect("out");
    let (gateway, authtoken) = start_signet(signet_dir.path()).await;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let app_url = format!("http://{}", listener.local_addr().expect("addr"));
    let certificate = signet_example_integrator::fetch_certificate(&gateway, "eMsecure").await.expect("certificate");
    let settings = signet_example_integrator::Settings {
        gateway_url: gateway.clone(),
        segment: "eMsecure".into(),
        authtoken,
        public_url: app_url.clone(),
        out_dir: out_dir.path().to_path_buf(),
        profile: signet_client::Profile::Modern,
    };
    tokio::spawn(async move { axum::serve(listener, signet_example_integrator::router(settings, certificate)).await });

    let browser = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    let pdf = reportlab_pdf(signet_dir.path());
    let boundary = "signet-example-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"signer\"\r\n\r\nAsha Verma\r\n--{boundary}\r\n\
         Content-Disposition: form-data; name=\"document\"; filename=\"contract.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(&pdf);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let to_gateway = browser
        .post(format!("{app_url}/start"))
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body)
        .send()
        .await
        .expect("start");
    assert_eq!(to_gateway.status(), 200);
    let (action, fields) = form_of(&to_gateway.text().await.expect("html"));
    assert_eq!(action, format!("{gateway}/eMsecure/V3_0/Index"));
    assert!(fields.iter().any(|(k, v)| k == "Profile" && v == "2"));

    let submitted = browser.post(&action).form(&fields).send().await.expect("index");
    assert_eq!(submitted.status(), 303);
    let page = format!("{gateway}{}", submitted.headers()["location"].to_str().expect("location"));
    assert!(browser.get(&page).send().await.expect("page").text().await.expect("html").contains("Asha Verma"));
    let signed = browser
        .post(format!("{page}/sign"))
        .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    let (back, result) = form_of(&signed.text().await.expect("html"));
    assert_eq!(back, format!("{app_url}/return/success"));
    let result: HashMap<String, String> = result.into_iter().collect();
    assert_eq!(result["ReturnStatus"], "Success");

    let landed = browser.post(&back).form(&result).send().await.expect("return");
    assert_eq!(landed.status(), 200);
    let html = landed.text().await.expect("html");
    let link = html.split("href=\"").nth(1).and_then(|r| r.split('"').next()).expect("download link");
    let file = browser.get(format!("{app_url}{link}")).send().await.expect("file").bytes().await.expect("pdf");
    let saved = out_dir.path().join("downloaded.pdf");
    std::fs::write(&saved, &file).expect("write");
    let report = Command::new("pdfsig").arg(&saved).output().expect("pdfsig");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("Signature is Valid"), "{report}");

    // The same result cannot be replayed, and a forged one is refused.
    assert_eq!(browser.post(&back).form(&result).send().await.expect("replay").status(), 404);
    let forged =
        browser.post(format!("{app_url}/return/success")).form(&[("nothing", "here")]).send().await.expect("forged");
    assert_eq!(forged.status(), 400);
    assert_eq!(
        browser.get(format!("{app_url}/files/..%2Fetc%2Fpasswd")).send().await.expect("traversal").status(),
        404
    );
}
