//! The isolation walk: tenant A creates an object of every kind the API offers, then tenant B
//! calls every operation of the OpenAPI document with A's ids. Each answers 404 (exactly as a
//! missing id would), lists show B nothing of A's, and afterwards A's objects read back as
//! before. An operation the walk does not know fails the test, so new operations get walked.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::Method;
use serde_json::{Value, json};
use signet_client::{
    GatewayCertificate, PageSelection, PayloadBuilder, Profile, ReturnUrls, SignaturePosition, SignatureType,
    seal_request,
};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::server::{TestApp, spawn_with};

use crate::support::{MISSING, discovery_server, signer_p12};

on_both_backends!(another_tenant_reaches_none_of_a_tenants_objects_through_any_operation);

/// Every name and text A stores carries this, so any leak of A's data to B shows in B's answers.
const MARK: &str = "alphaonly";

/// A's document: its text carries the mark too.
fn alpha_pdf() -> Vec<u8> {
    one_page("The alphaonly agreement. It binds both parties.")
}

async fn send(app: &TestApp, method: &Method, path: &str, token: &str, body: Option<&Value>) -> reqwest::Response {
    let mut request = app.client.request(method.clone(), app.url(path)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(body);
    }
    request.send().await.expect("send")
}

async fn created(response: reqwest::Response, what: &str) -> Value {
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    assert!((200..300).contains(&status), "creating {what} as A: {status} {body}");
    body
}

/// A's objects, by the name of the path parameter or body field that carries their id.
struct Objects {
    department: i64,
    document: i64,
    workflow: i64,
    /// The first signatory of `workflow`.
    signatory: i64,
    /// A second workflow, for the operations that take a list of workflows.
    other_workflow: i64,
    attachment: i64,
    template: i64,
    profile: i64,
    authtoken: i64,
    webhook: i64,
    delivery: i64,
    transaction: String,
    user: i64,
    external_user: i64,
    menu: i64,
    application: i64,
    /// A's own role, by its API id.
    role: i64,
    sso_provider: i64,
    /// A stamp paper of A's inventory.
    stamp: i64,
    referral: i64,
    /// A's lead, keyed `a-lead-1` (B may use the same key for its own lead).
    lead: i64,
    /// A's lot (of one letter for A's administrator) and the job that signed it.
    lot: i64,
    job: String,
    /// A third workflow of A's, ended and invoiced.
    invoiced: i64,
    /// A's export job (its workflows, CSV), completed.
    export: String,
}

async fn create_as_a(app: &TestApp, token: &str, admin_email: &str) -> Objects {
    let pdf = STANDARD.encode(alpha_pdf());
    let post = |path: &'static str, body: Value| async move { app.post(path, token, body).await };

    let department =
        created(post("/api/v1/departments", json!({"departmentName": "alphaonly legal"})).await, "a department").await;
    let department_id = department["departmentID"].as_i64().expect("departmentID");
    let user = created(
        post(
            "/api/v1/users",
            json!({"name": "alphaonly user", "EmailID": "alphaonly-user@a.test", "deptId": department_id,
                "designation": "alphaonly officer", "roleId": 2, "nationalId": "499118665246"}),
        )
        .await,
        "a user",
    )
    .await;
    let webhook = created(
        post(
            "/api/v1/webhooks",
            json!({"url": "http://127.0.0.1:9/alphaonly", "eventTypes": ["*"], "description": "alphaonly erp"}),
        )
        .await,
        "a webhook",
    )
    .await;
    let template = created(
        post(
            "/api/v1/templates",
            json!({"menuName": "alphaonly template", "description": "alphaonly", "definition": {"fields": [{"signatory": 1, "page": "last", "left": 50, "top": 50, "width": 120, "height": 40}]}}),
        )
        .await,
        "a template",
    )
    .await;
    let p12 = STANDARD.encode(signer_p12("s3cret"));
    let profile = created(
        post(
            "/api/v1/signing-profiles",
            json!({"name": "alphaonly profile", "emailId": "alphaonly-seal@a.test", "pkcs12": p12, "password": "s3cret"}),
        )
        .await,
        "a signing profile",
    )
    .await;
    let authtoken =
        created(post("/api/v1/gateway/authtokens", json!({"label": "alphaonly los"})).await, "an authtoken").await;
    created(
        app.put(
            "/api/v1/gateway/settings",
            token,
            json!({"fileTypes": ["PDF"], "signatureTypes": [4], "legacyProfileEnabled": false}),
        )
        .await,
        "gateway settings",
    )
    .await;

    let mut workflows = Vec::new();
    let mut documents = Vec::new();
    for n in 0..3 {
        let document = created(
            post("/api/v1/documents", json!({"documentName": format!("alphaonly-{n}.pdf"), "fileData": pdf})).await,
            "a document",
        )
        .await;
        let document_id = document["documentId"].as_i64().expect("documentId");
        documents.push(document_id);
        let workflow = created(
            post(
                "/api/v1/workflows",
                json!({
                    "templateId": 0,
                    "workflowName": format!("alphaonly workflow {n}"),
                    "referenceNo": format!("alphaonly-{n}"),
                    "documentIds": [document_id],
                    "signatories": [
                        {"subscriberId": 0, "emailId": "alphaonly-1@a.test", "name": "alphaonly one", "signingOrder": 1},
                        {"subscriberId": 0, "emailId": "alphaonly-2@a.test", "name": "alphaonly two", "signingOrder": 2}
                    ],
                    "listAttachmentDetails": [{"base64fileData": STANDARD.encode(b"alphaonly annex"), "documentName": "alphaonly-annex.txt"}]
                }),
            )
            .await,
            "a workflow",
        )
        .await;
        workflows.push(workflow["workflowId"].as_i64().expect("workflowId"));
    }
    created(
        post("/api/v1/documents/comments", json!({"documentID": documents[0], "comment": "alphaonly remark"})).await,
        "a comment",
    )
    .await;
    let details = created(app.get(&format!("/api/v1/workflows/{}", workflows[0]), token).await, "workflow").await;
    let signatory = details["signatories"][0]["signatoryId"].as_i64().expect("signatoryId");
    let audit = created(app.get(&format!("/api/v1/workflows/{}/audit", workflows[0]), token).await, "audit").await;
    let attachment = audit["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["action"] == "attachment.added")
        .and_then(|e| e["target"].as_str()?.strip_prefix("attachment:")?.parse().ok())
        .expect("the attachment's id in the workflow's events");

    let menu = created(
        post("/api/v1/menus/activities", json!({"menuParentId": 0, "menuName": "alphaonly loans"})).await,
        "a menu entry",
    )
    .await["menuId"]
        .as_i64()
        .expect("menuId");
    created(
        post("/api/v1/menus/access", json!({"menuIds": [menu], "departmentIds": [department_id]})).await,
        "a grant",
    )
    .await;

    let application =
        created(post("/api/v1/applications", json!({"appName": "alphaonly erp", "roleId": 2})).await, "an application")
            .await["application"]["applicationId"]
            .as_i64()
            .expect("applicationId");

    let role = created(
        post("/api/v1/roles", json!({"name": "alphaonly reviewer", "permissions": ["read_workflows"]})).await,
        "a role",
    )
    .await["roleId"]
        .as_i64()
        .expect("roleId");

    // A's single sign-on provider, for the domain of A's user.
    let sso_provider = created(
        post(
            "/api/v1/sso-providers",
            json!({"name": "alphaonly-idp", "displayName": "alphaonly staff", "issuer": discovery_server().await,
                   "clientId": "signet", "emailDomains": ["a.test"]}),
        )
        .await,
        "a single sign-on provider",
    )
    .await["providerId"]
        .as_i64()
        .expect("providerId");

    // A's stamp inventory, an article of A's own and A's alert settings.
    let stamp = created(
        post(
            "/api/v1/stamps",
            json!({"state": "DL", "denomination": [{"denomination": 100, "referenceNo": "alphaonly-0001"}]}),
        )
        .await,
        "stamp papers",
    )
    .await["stamps"][0]["stampId"]
        .as_i64()
        .expect("stampId");
    created(
        app.put(
            "/api/v1/stamps/article-codes/DL/77A",
            token,
            json!({"description": "alphaonly article", "dutyKind": "fixed", "fixedDuty": 10}),
        )
        .await,
        "an article",
    )
    .await;
    created(
        app.put("/api/v1/stamps/settings", token, json!({"lowStockThreshold": 1, "alertEmails": ["alphaonly@a.test"]}))
            .await,
        "stamp settings",
    )
    .await;

    // A's billing profile and the invoice of A's third workflow, once it has ended.
    created(
        app.put(
            "/api/v1/stamps/billing-profile",
            token,
            json!({"legalName": "alphaonly finance", "address": "alphaonly road", "stateCode": "MH"}),
        )
        .await,
        "a billing profile",
    )
    .await;
    let invoiced = workflows[2];
    created(post_inactive(app, token, invoiced).await, "an ended workflow").await;
    created(app.post("/api/v1/stamps/invoices", token, json!({"workflowId": invoiced})).await, "an invoice").await;

    // A's referral and lead (A sets no CRM endpoint, so the lead stays in the outbox unchanged).
    let referral = created(
        post(
            "/api/v1/referrals",
            json!({"referrerName": "alphaonly referrer", "referrerMobile": "+91 90000 00001",
                   "referrerEmail": "alphaonly-referrer@a.test", "referralName": "alphaonly friend",
                   "referralMobile": "9000000002", "referralEmail": "alphaonly-friend@a.test"}),
        )
        .await,
        "a referral",
    )
    .await["referralId"]
        .as_i64()
        .expect("referralId");
    let lead = created(
        post("/api/v1/crm/leads", json!({"leadKey": "a-lead-1", "name": "alphaonly lead", "email": "lead@a.test"}))
            .await,
        "a lead",
    )
    .await["leadId"]
        .as_i64()
        .expect("leadId");

    let (lot, job) = lot_signed_by_a(app, token, admin_email, &pdf).await;

    // A registration with A, waiting for A's decision.
    let external_user = register_with_a(app, token).await;

    // A gateway transaction, posted by A's integrator with A's Authtoken.
    let der =
        app.client.get(app.url("/eMsecure/certificate.cer")).send().await.expect("cer").bytes().await.expect("der");
    let certificate = GatewayCertificate::from_der(&der).expect("certificate");
    let urls = ReturnUrls {
        success: "https://erp.example.test/ok".into(),
        failure: "https://erp.example.test/failed".into(),
        cancel: "https://erp.example.test/cancelled".into(),
    };
    let payload = PayloadBuilder::pdf(&alpha_pdf(), "Alphaonly Signer")
        .reference_number("ALPHAONLY-1")
        .authtoken(authtoken["authtoken"].as_str().expect("authtoken"))
        .signature_types(&[SignatureType::ESignature])
        .urls(&urls)
        .pages(&PageSelection::All)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
        .store_to_db(true)
        .build()
        .expect("payload");
    let sealed = seal_request(&certificate, Profile::Modern, &payload, time::OffsetDateTime::now_utc()).expect("seal");
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let submitted =
        http.post(app.url("/eMsecure/V3_0/Index")).form(&sealed.form_fields()).send().await.expect("submit");
    assert_eq!(submitted.status(), 303, "gateway submission");
    let link = submitted.headers()["location"].to_str().expect("location").to_string();
    let transaction = link.trim_start_matches("/sign/g/").split('/').next().expect("number").to_string();

    // The workflows' events reach the webhook as deliveries (the workers run).
    let webhook_id = webhook["webhookId"].as_i64().expect("webhookId");
    let mut delivery = None;
    for _ in 0..200 {
        let list: Value =
            app.get(&format!("/api/v1/webhooks/{webhook_id}/deliveries"), token).await.json().await.expect("json");
        delivery = list.as_array().and_then(|l| l.first()).and_then(|d| d["deliveryId"].as_i64());
        if delivery.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    let export = a_export(app, token).await;
    Objects {
        sso_provider,
        department: department["departmentID"].as_i64().expect("departmentID"),
        document: documents[0],
        workflow: workflows[0],
        signatory,
        other_workflow: workflows[1],
        attachment,
        template: template["templateId"].as_i64().expect("templateId"),
        profile: profile["profileId"].as_i64().expect("profileId"),
        authtoken: authtoken["id"].as_i64().expect("id"),
        webhook: webhook_id,
        delivery: delivery.expect("a webhook delivery of A's workflow events"),
        transaction,
        user: user["subscriberId"].as_i64().expect("subscriberId"),
        lot,
        job,
        external_user,
        menu,
        application,
        role,
        stamp,
        referral,
        lead,
        invoiced,
        export,
    }
}

/// A's export of its workflows as a job (`Prefer: respond-async`), waited for until completed.
async fn a_export(app: &TestApp, token: &str) -> String {
    let response = app
        .client
        .post(app.url("/api/v1/exports/workflows"))
        .bearer_auth(token)
        .header("prefer", "respond-async")
        .json(&json!({"format": "csv"}))
        .send()
        .await
        .expect("export");
    let job = created(response, "an export job").await;
    let export = job["exportId"].as_str().expect("exportId").to_string();
    for _ in 0..400 {
        let status: Value = app.get(&format!("/api/v1/exports/jobs/{export}"), token).await.json().await.expect("json");
        if status["status"] == "completed" {
            return export;
        }
        assert_ne!(status["status"], "failed", "{status}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("A's export was not written in time");
}

async fn post_inactive(app: &TestApp, token: &str, workflow_id: i64) -> reqwest::Response {
    app.post(&format!("/api/v1/workflows/{workflow_id}/inactive"), token, json!({"workflowid": workflow_id})).await
}

/// Registers an external user with A's tenant (found through A's own user) and answers its id.
async fn register_with_a(app: &TestApp, token: &str) -> i64 {
    let tenant_id = app
        .store
        .tenant_of_principal(signet_domain::PrincipalId::from(a_user_id(app, token).await))
        .await
        .expect("tenant")
        .expect("tenant id");
    let body = json!({"name": "alphaonly customer", "emailID": "alphaonly-customer@a.test"});
    let registered = app
        .client
        .post(app.url(&format!("/api/v1/tenants/{tenant_id}/register")))
        .json(&body)
        .send()
        .await
        .expect("register");
    assert_eq!(registered.status(), 202);
    let found: Value =
        app.post("/api/v1/users/search", token, json!({"status": "pending"})).await.json().await.expect("json");
    found["items"][0]["subscriberId"].as_i64().expect("the registration")
}

/// A lot of one letter for A's administrator, signed by them (its job finished).
async fn lot_signed_by_a(app: &TestApp, token: &str, admin_email: &str, pdf: &str) -> (i64, String) {
    let tokens: Value = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"grant_type": "password", "username": admin_email, "password": "correct horse battery"}))
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    let officer = tokens["access_token"].as_str().expect("A's administrator's token").to_string();
    let me: Value = app.get("/api/v1/users/me", &officer).await.json().await.expect("json");
    let letter = json!({"documentName": "alphaonly letter.pdf", "fileData": pdf,
                        "signatories": [{"emailId": admin_email, "name": "alphaonly officer"}]});
    let letter = created(app.post("/api/v1/workflows/initiate-and-sign", token, letter).await, "a letter").await;
    let lot =
        json!({"name": "alphaonly lot", "signerUserId": me["subscriberId"], "workflowIds": [letter["workflowId"]]});
    let lot = created(app.post("/api/v1/lots", token, lot).await, "a lot").await["lotId"].as_i64().expect("lotId");
    let sign = json!({"lotId": lot, "signatureImage": STANDARD.encode(signet_testkit::pdf::signature_png())});
    let job = created(app.post("/api/v1/lots/sign", &officer, sign).await, "a lot's signing").await;
    let job = job["jobId"].as_str().expect("jobId").to_string();
    for _ in 0..400 {
        let status: Value = app.get(&format!("/api/v1/bulk-jobs/{job}"), token).await.json().await.expect("json");
        if status["finishedAt"].is_i64() {
            assert_eq!(status["status"], "completed", "{status}");
            return (lot, job);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("A's lot was not signed in time");
}

async fn a_user_id(app: &TestApp, token: &str) -> i64 {
    let found: Value = app
        .post("/api/v1/users/internal-search", token, json!({"searchText": "alphaonly user"}))
        .await
        .json()
        .await
        .expect("json");
    found["items"][0]["subscriberId"].as_i64().expect("A's user")
}

/// The value of a path parameter, for A's objects or for ids nobody has.
fn path_value(name: &str, a: &Objects, missing: bool) -> String {
    let pick = |id: i64| if missing { MISSING.to_string() } else { id.to_string() };
    match name {
        "departmentId" => pick(a.department),
        "documentId" => pick(a.document),
        "workflowId" => pick(a.workflow),
        "signatoryId" => pick(a.signatory),
        "attachmentId" => pick(a.attachment),
        "templateId" => pick(a.template),
        "profileId" => pick(a.profile),
        "id" => pick(a.authtoken),
        "webhookId" => pick(a.webhook),
        "deliveryId" => pick(a.delivery),
        "userId" => pick(a.user),
        "menuId" => pick(a.menu),
        "applicationId" => pick(a.application),
        "roleId" => pick(a.role),
        "providerId" => pick(a.sso_provider),
        "stampId" => pick(a.stamp),
        "referralId" => pick(a.referral),
        "leadId" => pick(a.lead),
        "lotId" => pick(a.lot),
        "exportId" if missing => "exp_missing".into(),
        "exportId" => a.export.clone(),
        "jobId" if missing => "job_missing".into(),
        "jobId" => a.job.clone(),
        // Articles are named, not numbered: A's own article, which B does not have.
        "stateCode" => "DL".into(),
        "articleCode" => "77A".into(),
        "transactionNumber" if missing => "SGN00000000000000MISSING".into(),
        "transactionNumber" => a.transaction.clone(),
        other => panic!("the isolation walk cannot fill the path parameter {{{other}}}: teach it"),
    }
}

/// What B does with an operation.
enum Walk {
    /// Takes A's ids (in the path or the body): 404 `not_found` for B.
    Foreign(Option<Value>),
    /// Takes the id of one of A's objects that the path parameter's name does not say (an
    /// invoiced workflow): at this address, 404 `not_found` for B.
    ForeignAt(String),
    /// Creates B's own object from ids in the body: A's ids are refused exactly as missing ones.
    CreateFrom(Value),
    /// Lists or reads B's own things: nothing of A's may show.
    Own,
    /// Searches B's own things with this body: nothing of A's may show.
    OwnSearch(Value),
    /// Token operations and creations that take no id: nothing of A's to reach.
    NoIds,
    /// Looks up B's own things with this body (not a paged search): nothing of A's may show.
    OwnLookup(Value),
    /// Changes B's own things at this address (names, not ids, so A's name is B's own): A's
    /// objects stay as they were (the snapshot after the walk says so).
    OwnWrite(String, Value),
    /// Exports B's own rows with this body: nothing of A's may be in the file.
    OwnExport(Value),
    /// Public operations that name an organisation by design (registering with it): they
    /// answer alike for every organisation and show nothing.
    PublicByDesign,
}

fn walk(operation: &str, a: &Objects, missing: bool) -> Walk {
    let id = |id: i64| if missing { MISSING } else { id };
    let workflow = id(a.workflow);
    let document = id(a.document);
    let pdf = STANDARD.encode(b"%PDF-1.4 not read before the ids are checked");
    let signer = json!([{"subscriberId": 0, "emailId": "b@b.test", "name": "b", "signingOrder": 1}]);
    match operation {
        "POST /api/v1/auth/token"
        | "POST /api/v1/auth/password"
        | "POST /api/v1/auth/login-modes"
        | "POST /api/v1/auth/check-auth"
        | "POST /api/v1/auth/check-account"
        | "POST /api/v1/users"
        | "GET /api/v1/users/me"
        | "POST /api/v1/auth/refresh"
        | "POST /api/v1/auth/revoke"
        | "POST /api/v1/auth/sessions/revoke"
        | "POST /api/v1/departments"
        | "POST /api/v1/documents"
        | "POST /api/v1/documents/bulk"
        | "POST /api/v1/gateway/authtokens"
        | "PUT /api/v1/gateway/settings"
        | "PUT /api/v1/organisation/embedding"
        | "POST /api/v1/signing-profiles"
        | "POST /api/v1/templates"
        | "POST /api/v1/webhooks" => Walk::NoIds,
        "GET /api/v1/.well-known/jwks.json"
        | "GET /api/v1/audit"
        | "GET /api/v1/audit/verify"
        | "GET /api/v1/departments"
        | "GET /api/v1/esign/providers"
        | "GET /api/v1/gateway/authtokens"
        | "GET /api/v1/gateway/settings"
        | "GET /api/v1/organisation/embedding"
        | "GET /api/v1/signing-profiles"
        | "GET /api/v1/webhooks"
        | "GET /api/v1/workflows" => Walk::Own,
        "POST /api/v1/tenants/{tenantId}/register" => Walk::PublicByDesign,
        "POST /api/v1/auth/free-trial"
        | "POST /api/v1/auth/authorize-app"
        | "POST /api/v1/applications"
        | "GET /api/v1/users/me/logins"
        | "POST /api/v1/users/me/totp"
        | "POST /api/v1/users/me/totp/confirm"
        | "POST /api/v1/users/me/totp/disable"
        | "POST /api/v1/users/me/certificates"
        | "POST /api/v1/users/me/certificates/reset"
        | "PUT /api/v1/users/me/automated-signing" => Walk::NoIds,
        "GET /api/v1/users/me/automated-signing" => Walk::NoIds,
        "POST /api/v1/users/{userId}/totp/reset" => Walk::Foreign(None),
        "GET /api/v1/applications" | "GET /api/v1/roles" | "GET /api/v1/sso-providers" => Walk::Own,
        "POST /api/v1/sso-providers" | "POST /api/v1/verify" => Walk::NoIds,
        // A report names no stored object: it is about the file handed in, and a sealed one is
        // sealed with the caller's own organisation's certificate.
        "POST /api/v1/verify/report" | "POST /api/v1/verify/sealed-report" => Walk::NoIds,
        "GET /api/v1/sso-providers/domain-proofs" | "GET /api/v1/sso-providers/settings" => Walk::Own,
        "PUT /api/v1/sso-providers/settings" => Walk::NoIds,
        // Domains are names: B starts its own proof; B has none of A's domain to check.
        "PUT /api/v1/sso-providers/domain-proofs/{domain}" => {
            Walk::OwnWrite("/api/v1/sso-providers/domain-proofs/b.test".into(), json!(null))
        }
        "POST /api/v1/sso-providers/domain-proofs/{domain}/check" => {
            Walk::ForeignAt("/api/v1/sso-providers/domain-proofs/a.test/check".into())
        }
        // A whole, valid body: B's change of A's provider is refused as a missing one's.
        "PUT /api/v1/sso-providers/{providerId}" => Walk::Foreign(Some(json!({
            "name": "b-idp", "displayName": "b's staff", "issuer": "http://127.0.0.1:9",
            "clientId": "b", "emailDomains": ["b.test"],
        }))),
        "POST /api/v1/roles" => Walk::NoIds,
        "POST /api/v1/applications/{applicationId}/rotate" => Walk::Foreign(None),
        "GET /api/v1/menus" => Walk::Own,
        "POST /api/v1/menus/activities" => Walk::CreateFrom(json!({"menuParentId": id(a.menu), "menuName": "b's"})),
        "POST /api/v1/menus/delete" => Walk::Foreign(Some(json!({"menuId": id(a.menu)}))),
        "POST /api/v1/menus/access" => Walk::CreateFrom(json!({"menuIds": [id(a.menu)], "departmentIds": []})),
        "POST /api/v1/users/search" | "POST /api/v1/users/internal-search" => {
            Walk::OwnSearch(json!({"searchText": "alphaonly"}))
        }
        "POST /api/v1/templates/find" => Walk::OwnLookup(json!({"name": "alphaonly template", "requestFrom": "api"})),
        "PUT /api/v1/users/{userId}" => Walk::Foreign(Some(json!({"name": "taken over", "EmailID": "b-takes@b.test"}))),
        "POST /api/v1/users/disable" => {
            Walk::Foreign(Some(json!({"userId": id(a.user), "forceDisableWithWorkflow": true})))
        }
        "POST /api/v1/users/inactive" => Walk::Foreign(Some(json!({"userId": id(a.user), "invalidateTokens": true}))),
        "POST /api/v1/users/delete" => Walk::Foreign(Some(json!({"userId": id(a.user)}))),
        "POST /api/v1/users/external/approve" | "POST /api/v1/users/external/reject" => {
            Walk::Foreign(Some(json!({"externalUserId": id(a.external_user)})))
        }
        "POST /api/v1/users/password-email" => Walk::Foreign(Some(json!({"emailID": "alphaonly-user@a.test"}))),
        "POST /api/v1/users/{userId}/reactivate" => Walk::Foreign(None),
        "POST /api/v1/departments/delete" => Walk::Foreign(Some(json!({"departmentId": id(a.department)}))),
        "POST /api/v1/departments/bulk-delete" => Walk::Foreign(Some(json!({"departmentIds": [id(a.department)]}))),
        "PUT /api/v1/departments/{departmentId}" => Walk::Foreign(Some(json!({"departmentName": "taken over"}))),
        "POST /api/v1/documents/category" => {
            Walk::Foreign(Some(json!({"workflowId": workflow, "documentId": document, "categoryId": 7})))
        }
        "POST /api/v1/documents/comments" => {
            Walk::Foreign(Some(json!({"documentID": document, "comment": "b was here"})))
        }
        "POST /api/v1/documents/delete" => Walk::Foreign(Some(json!({"workflowId": workflow, "isWorkflow": true}))),
        "POST /api/v1/documents/download" => {
            Walk::Foreign(Some(json!({"workflowid": workflow, "documentId": document})))
        }
        "POST /api/v1/documents/inactive" => {
            Walk::Foreign(Some(json!({"documentId": document, "reason": "b", "forceInactive": true})))
        }
        "POST /api/v1/documents/summary" => {
            Walk::Foreign(Some(json!({"workflowId": workflow, "documentId": document})))
        }
        "POST /api/v1/workflows/{workflowId}/decline" => {
            Walk::Foreign(Some(json!({"workflowId": workflow, "reason": "b declines"})))
        }
        "POST /api/v1/workflows/{workflowId}/delegate" => Walk::Foreign(Some(
            json!({"workflowId": workflow, "delegatedUserEmail": "b@b.test", "reason": "b takes over"}),
        )),
        "POST /api/v1/workflows/{workflowId}/inactive" => Walk::Foreign(Some(json!({"workflowid": workflow}))),
        "POST /api/v1/workflows/{workflowId}/link" => {
            Walk::Foreign(Some(json!({"workflowId": workflow, "linkedWorkflowIds": [id(a.other_workflow)]})))
        }
        "POST /api/v1/workflows" => Walk::CreateFrom(json!({
            "templateId": id(a.template),
            "documentIds": [document],
            "linkedWorkflowId": workflow,
            "signatories": signer,
        })),
        "POST /api/v1/workflows/initiate-and-sign" => Walk::CreateFrom(json!({
            "templateId": id(a.template),
            "documentName": "b.pdf",
            "fileData": pdf,
            "signatories": [{"emailId": "b@b.test", "name": "b"}],
        })),
        "POST /api/v1/workflows/optimized" => Walk::CreateFrom(json!({
            "templateList": [{"templateId": id(a.template)}],
            "signatoryEmailIds": ["b@b.test"],
        })),
        "POST /api/v1/stamps" | "PUT /api/v1/stamps/settings" => Walk::NoIds,
        "GET /api/v1/stamps" | "GET /api/v1/stamps/stock" | "GET /api/v1/stamps/settings" => Walk::Own,
        "POST /api/v1/stamps/article-codes" => Walk::OwnLookup(json!({"stateCode": "DL"})),
        "PUT /api/v1/stamps/article-codes/{stateCode}/{articleCode}" => Walk::OwnWrite(
            "/api/v1/stamps/article-codes/DL/B1".into(),
            json!({"description": "b's article", "dutyKind": "varies"}),
        ),
        "POST /api/v1/stamps/{stampId}/retire" => Walk::Foreign(None),
        // A lot names a user and workflows of the tenant: A's are refused as missing ones.
        "POST /api/v1/lots" => {
            Walk::CreateFrom(json!({"name": "b's lot", "signerUserId": id(a.user), "workflowIds": [id(a.workflow)]}))
        }
        "POST /api/v1/lots/sign" => {
            Walk::Foreign(Some(json!({"lotId": id(a.lot), "signatureImage": "iVBORw0KGgoAAAANSUhEUg=="})))
        }
        "POST /api/v1/bulk-jobs/{jobId}/cancel" => Walk::Foreign(None),
        // A bulk send copies the tenant's uploads: A's are refused as missing ones.
        "POST /api/v1/bulk-sends" => Walk::CreateFrom(
            json!({"documentIds": [id(a.document)], "fileData": STANDARD.encode("signer1.email\nb@b.test\n"), "dryRun": true}),
        ),
        "POST /api/v1/stamps/invoices" => Walk::Foreign(Some(json!({"workflowId": id(a.invoiced)}))),
        "GET /api/v1/stamps/invoices/{workflowId}" => {
            Walk::ForeignAt(format!("/api/v1/stamps/invoices/{}", id(a.invoiced)))
        }
        "GET /api/v1/stamps/invoices/{workflowId}/{kind}" => {
            Walk::ForeignAt(format!("/api/v1/stamps/invoices/{}/invoice", id(a.invoiced)))
        }
        // B's list of issued documents: none of A's may show.
        "GET /api/v1/stamps/invoices" => Walk::Own,
        // B set no billing profile: B's address answers 404, never A's profile.
        "GET /api/v1/stamps/billing-profile" => Walk::Foreign(None),
        "PUT /api/v1/stamps/billing-profile" => Walk::NoIds,
        "POST /api/v1/referrals" | "PUT /api/v1/crm/settings" => Walk::NoIds,
        "GET /api/v1/referrals" | "GET /api/v1/crm/leads" | "GET /api/v1/crm/settings" => Walk::Own,
        // Contacts are per tenant: B's upsert with A's lead's address makes B's own lead and
        // leaves A's as it was (B's key differs, so that mark-pushed with A's key stays A's).
        "POST /api/v1/crm/leads" => {
            Walk::OwnWrite("/api/v1/crm/leads".into(), json!({"leadKey": "b-lead-1", "email": "lead@a.test"}))
        }
        "POST /api/v1/crm/leads/mark-pushed" => {
            Walk::Foreign(Some(json!({"leadKey": "a-lead-1", "success": true, "crmLeadId": "b's"})))
        }
        // Each tenant exports its own rows; A's export job is reached by its id (above).
        "POST /api/v1/exports/workflows"
        | "POST /api/v1/exports/signatories"
        | "POST /api/v1/exports/audit-events"
        | "POST /api/v1/exports/users" => Walk::OwnExport(json!({"format": "jsonl"})),
        "GET /api/v1/retention" | "GET /api/v1/holds" => Walk::Own,
        // B's periods for A's template: refused as a missing template.
        "PUT /api/v1/retention" => Walk::CreateFrom(
            json!({"completedDays": 1, "templates": [{"templateId": id(a.template), "completedDays": 0}]}),
        ),
        "PUT /api/v1/workflows/{workflowId}/hold" => Walk::Foreign(Some(json!({"reason": "b holds"}))),
        // B's erasure request for A's signer: A's workflows stay as they were.
        "POST /api/v1/privacy/erasure" => {
            Walk::OwnWrite("/api/v1/privacy/erasure".into(), json!({"email": "alphaonly-1@a.test"}))
        }
        op if op.contains('{') && !op.starts_with("POST ") && !op.starts_with("PUT ") => Walk::Foreign(None),
        "POST /api/v1/webhooks/deliveries/{deliveryId}/redeliver"
        | "POST /api/v1/webhooks/{webhookId}/resume"
        | "POST /api/v1/workflows/{workflowId}/signatories/{signatoryId}/link/revoke"
        | "POST /api/v1/workflows/{workflowId}/signatories/{signatoryId}/remind" => Walk::Foreign(None),
        "POST /api/v1/workflows/{workflowId}/signatories/{signatoryId}/embed" => {
            Walk::Foreign(Some(json!({"origin": "https://app.example"})))
        }
        other => panic!("the isolation walk does not know {other}: say what tenant B does with it"),
    }
}

fn substitute(path: &str, a: &Objects, missing: bool) -> String {
    let mut concrete = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').expect("closing brace") + start;
        concrete.push_str(&rest[..start]);
        concrete.push_str(&path_value(&rest[start + 1..end], a, missing));
        rest = &rest[end + 1..];
    }
    concrete.push_str(rest);
    concrete
}

/// Everything A can read of its own objects; compared before and after B's walk.
async fn snapshot(app: &TestApp, token: &str, a: &Objects) -> BTreeMap<String, Value> {
    let mut reads = vec![
        format!("/api/v1/departments/{}", a.department),
        "/api/v1/departments".to_string(),
        format!("/api/v1/workflows/{}", a.workflow),
        format!("/api/v1/workflows/{}", a.other_workflow),
        format!("/api/v1/workflows/{}/audit", a.workflow),
        format!("/api/v1/workflows/{}/attachments/{}", a.workflow, a.attachment),
        format!("/api/v1/documents/{}/comments", a.document),
        format!("/api/v1/templates/{}", a.template),
        format!("/api/v1/users/{}", a.user),
        format!("/api/v1/menus/{}/access", a.menu),
        "/api/v1/menus".to_string(),
        "/api/v1/applications".to_string(),
        "/api/v1/roles".to_string(),
        "/api/v1/sso-providers".to_string(),
        "/api/v1/signing-profiles".to_string(),
        "/api/v1/gateway/authtokens".to_string(),
        "/api/v1/gateway/settings".to_string(),
        "/api/v1/webhooks".to_string(),
        "/api/v1/audit".to_string(),
        "/api/v1/audit/verify".to_string(),
        "/api/v1/stamps".to_string(),
        format!("/api/v1/stamps/{}", a.stamp),
        "/api/v1/stamps/stock".to_string(),
        "/api/v1/stamps/settings".to_string(),
        "/api/v1/stamps/billing-profile".to_string(),
        format!("/api/v1/stamps/invoices/{}", a.invoiced),
        "/api/v1/stamps/invoices".to_string(),
        format!("/api/v1/stamps/invoices/{}/invoice", a.invoiced),
        "/api/v1/referrals".to_string(),
        format!("/api/v1/referrals/{}", a.referral),
        "/api/v1/crm/leads".to_string(),
        format!("/api/v1/crm/leads/{}", a.lead),
        "/api/v1/crm/settings".to_string(),
        format!("/api/v1/lots/{}", a.lot),
        format!("/api/v1/bulk-jobs/{}", a.job),
        format!("/api/v1/bulk-jobs/{}/completion", a.job),
        format!("/api/v1/exports/jobs/{}", a.export),
        format!("/api/v1/exports/jobs/{}/file", a.export),
    ];
    reads.push("/api/v1/workflows".to_string());
    let mut seen = BTreeMap::new();
    for path in reads {
        let response = app.get(&path, token).await;
        assert_eq!(response.status(), 200, "A reads {path}");
        let bytes = response.bytes().await.expect("body");
        let value = serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(STANDARD.encode(&bytes)));
        seen.insert(path, value);
    }
    let articles: Value =
        app.post("/api/v1/stamps/article-codes", token, json!({"stateCode": "DL"})).await.json().await.expect("json");
    seen.insert("articles".into(), articles);
    // Deliveries change as the workers retry them; which ones exist does not.
    let deliveries: Value =
        app.get(&format!("/api/v1/webhooks/{}/deliveries", a.webhook), token).await.json().await.expect("json");
    let ids: Vec<Value> =
        deliveries.as_array().expect("deliveries").iter().map(|d| json!([d["deliveryId"], d["messageId"]])).collect();
    seen.insert("deliveries".into(), Value::Array(ids));
    let transaction: Value =
        app.get(&format!("/api/v1/gateway/transactions/{}", a.transaction), token).await.json().await.expect("json");
    seen.insert("transaction".into(), json!([transaction["transactionNumber"], transaction["status"]]));
    seen
}

async fn another_tenant_reaches_none_of_a_tenants_objects_through_any_operation(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
        config.outbound_allow_private = true;
        // The installation invoices (docs/stamps.md, "Invoices"), so that A has an invoice.
        config.invoice_supplier_name = Some("Platform Operator".into());
        config.invoice_supplier_address = Some("1 Operator Street, Mumbai".into());
        config.invoice_supplier_gstin = Some("27AACCS1234K1ZF".into());
        config.invoice_supplier_state = Some("MH".into());
        config.invoice_fee_paise = 10_000;
    })
    .await;
    let tenant_a = app.tenant("Alpha").await;
    let tenant_b = app.tenant("Beta").await;
    let a_token = app.token(&tenant_a).await;
    let b_token = app.token(&tenant_b).await;
    let a = create_as_a(&app, &a_token, &tenant_a.admin_email).await;
    // Let the workers finish with A's events before the picture is taken.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let before = snapshot(&app, &a_token, &a).await;

    let document: Value = serde_json::to_value(signet_server::openapi::document()).expect("document");
    let mut walked = 0;
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let label = format!("{} {path}", method.to_uppercase());
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let takes_body = operation.get("requestBody").is_some();
            match walk(&label, &a, false) {
                Walk::Foreign(body) => {
                    assert_eq!(body.is_some(), takes_body, "{label}: the walk's body does not match the document");
                    let response = send(&app, &method, &substitute(path, &a, false), &b_token, body.as_ref()).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert_eq!(status, 404, "{label} with A's ids as B: {text}");
                    let problem: Value = serde_json::from_str(&text).expect("problem json");
                    assert_eq!(problem["code"], "not_found", "{label}: {problem}");
                    assert!(!text.contains(MARK), "{label} shows A's data to B: {text}");
                }
                Walk::ForeignAt(concrete) => {
                    assert!(!takes_body, "{label}: the walk sends no body");
                    let response = send(&app, &method, &concrete, &b_token, None).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert_eq!(status, 404, "{label} with A's ids as B: {text}");
                    let problem: Value = serde_json::from_str(&text).expect("problem json");
                    assert_eq!(problem["code"], "not_found", "{label}: {problem}");
                    assert!(!text.contains(MARK), "{label} shows A's data to B: {text}");
                }
                Walk::CreateFrom(body) => {
                    let with_a = send(&app, &method, path, &b_token, Some(&body)).await;
                    let (a_status, a_text) = (with_a.status().as_u16(), with_a.text().await.expect("body"));
                    let Walk::CreateFrom(missing_body) = walk(&label, &a, true) else { unreachable!() };
                    let with_missing = send(&app, &method, path, &b_token, Some(&missing_body)).await;
                    let (m_status, m_text) = (with_missing.status().as_u16(), with_missing.text().await.expect("body"));
                    assert!(a_status == 400 || a_status == 404, "{label} with A's ids as B: {a_status} {a_text}");
                    assert_eq!(a_status, m_status, "{label}: A's ids ({a_text}) and missing ids ({m_text}) differ");
                    let a_problem: Value = serde_json::from_str(&a_text).expect("problem json");
                    let m_problem: Value = serde_json::from_str(&m_text).expect("problem json");
                    assert_eq!(a_problem["errors"], m_problem["errors"], "{label}: A's ids are told from missing ones");
                    assert!(!a_text.contains(MARK), "{label} shows A's data to B: {a_text}");
                }
                Walk::Own => {
                    assert!(!path.contains('{'), "{label}");
                    let response = send(&app, &method, path, &b_token, None).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert_eq!(status, 200, "{label} as B: {text}");
                    assert!(!text.to_lowercase().contains(MARK), "{label} shows A's data to B: {text}");
                }
                Walk::OwnSearch(body) => {
                    let response = send(&app, &method, path, &b_token, Some(&body)).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert_eq!(status, 200, "{label} as B: {text}");
                    assert!(!text.to_lowercase().contains(MARK), "{label} shows A's data to B: {text}");
                    let nothing: Value = serde_json::from_str(&text).expect("json");
                    assert_eq!(nothing["totalCount"], 0, "{label}: {text}");
                }
                Walk::OwnLookup(body) => {
                    let response = send(&app, &method, path, &b_token, Some(&body)).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert_eq!(status, 200, "{label} as B: {text}");
                    assert!(!text.to_lowercase().contains(MARK), "{label} shows A's data to B: {text}");
                }
                Walk::OwnWrite(own_path, body) => {
                    let response = send(&app, &method, &own_path, &b_token, Some(&body)).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert!((200..300).contains(&status), "{label} as B: {status} {text}");
                    assert!(!text.to_lowercase().contains(MARK), "{label} shows A's data to B: {text}");
                }
                Walk::OwnExport(body) => {
                    let response = send(&app, &method, path, &b_token, Some(&body)).await;
                    let status = response.status().as_u16();
                    let text = response.text().await.expect("body");
                    assert_eq!(status, 200, "{label} as B: {text}");
                    assert!(!text.to_lowercase().contains(MARK), "{label} shows A's data to B: {text}");
                }
                Walk::NoIds => {
                    assert!(!path.contains('{'), "{label} takes an id: walk it");
                    continue;
                }
                Walk::PublicByDesign => continue,
            }
            walked += 1;
        }
    }
    assert!(walked >= 35, "only {walked} operations walked");

    // B's own lists are still empty of A's, and A's objects read back exactly as before.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let after = snapshot(&app, &a_token, &a).await;
    for (path, value) in &before {
        assert_eq!(Some(value), after.get(path), "A's {path} changed during B's walk");
    }
}
