//! A workflow signed through the API and the signer page, as a sender and a signer would.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use crate::pdf::one_page;

/// Uploads a one-page PDF titled `name`, starts a workflow of it with one signer (`email`)
/// and signs it on the signing page with a typed name; answers the started workflow's JSON.
/// `http` must not follow redirects.
pub async fn sign_one(http: &reqwest::Client, base: &str, token: &str, name: &str, email: &str) -> Value {
    let post = |path: &str, body: Value| http.post(format!("{base}{path}")).bearer_auth(token).json(&body).send();
    let document = json!({"documentName": format!("{name}.pdf"), "fileData": STANDARD.encode(one_page(name))});
    let document: Value = post("/api/v1/documents", document).await.expect("upload").json().await.expect("json");
    let signer = json!([{"subscriberId": 0, "emailId": email, "name": "Signer", "signingOrder": 1}]);
    let body =
        json!({"templateId": 0, "workflowName": name, "documentIds": [document["documentId"]], "signatories": signer});
    let started: Value = post("/api/v1/workflows", body).await.expect("initiate").json().await.expect("json");
    let link = started["signingUrls"][0]["url"].as_str().expect("signing url");
    let link = if link.starts_with("http") { link.to_string() } else { format!("{base}{link}") };
    assert_eq!(http.get(&link).send().await.expect("page").status(), 200);
    let form = [("mode", "typed"), ("typedName", "Signer"), ("font", "handwriting"), ("consent", "on")];
    assert_eq!(http.post(format!("{link}/sign")).form(&form).send().await.expect("sign").status(), 200);
    started
}
