//! The integrator's side of the signing gateway: an Authtoken, the gateway's encryption
//! certificate, and envelopes sealed by the client SDK posted to the intake address.

use reqwest::redirect::Policy;
use serde_json::{Value, json};
use signet_client::{GatewayCertificate, Profile, ReturnUrls, SealedRequest, seal_request};

/// Where the test integrator wants the signer sent back.
pub fn erp_urls() -> ReturnUrls {
    ReturnUrls {
        success: "https://erp.example.test/signed".into(),
        failure: "https://erp.example.test/failed".into(),
        cancel: "https://erp.example.test/cancelled".into(),
    }
}

/// An integrator of a tenant: its Authtoken, the gateway certificate it seals to, and an HTTP
/// client that does not follow redirects (the intake answers 303 to the signer page).
pub struct Integrator {
    pub authtoken: String,
    pub certificate: GatewayCertificate,
    pub http: reqwest::Client,
}

impl Integrator {
    /// Creates an Authtoken with the tenant's API `access_token` and fetches the certificate.
    pub async fn setup(base: &str, access_token: &str) -> Integrator {
        let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
        let created: Value = http
            .post(format!("{base}/api/v1/gateway/authtokens"))
            .bearer_auth(access_token)
            .json(&json!({"label": "LOS"}))
            .send()
            .await
            .expect("authtoken")
            .json()
            .await
            .expect("json");
        let der = http.get(format!("{base}/eMsecure/certificate.cer")).send().await.expect("cer");
        Integrator {
            authtoken: created["authtoken"].as_str().expect("authtoken").to_string(),
            certificate: GatewayCertificate::from_der(&der.bytes().await.expect("der")).expect("certificate"),
            http,
        }
    }

    /// Seals `payload` (JSON bytes) to the gateway for `profile`, dated now.
    pub fn seal(&self, profile: Profile, payload: &[u8]) -> SealedRequest {
        seal_request(&self.certificate, profile, payload, time::OffsetDateTime::now_utc()).expect("seal")
    }

    /// Posts a sealed envelope to the intake address of the server at `base`.
    pub async fn submit(&self, base: &str, sealed: &SealedRequest) -> reqwest::Response {
        self.http.post(format!("{base}/eMsecure/V3_0/Index")).form(&sealed.form_fields()).send().await.expect("submit")
    }
}

/// An API access token for a tenant's client credentials, from the server at `base`.
pub async fn access_token(http: &reqwest::Client, base: &str, client_id: &str, client_secret: &str) -> String {
    let body = json!({"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret});
    let response = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().await.expect("token");
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("json");
    body["access_token"].as_str().expect("access_token").to_string()
}
