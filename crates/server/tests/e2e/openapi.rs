//! The committed `openapi.json` matches the code, and every documented operation is routed.

use serde_json::Value;
use signet_store::Backend;

fn committed_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openapi.json")
}

#[test]
fn committed_document_matches_the_code() {
    let generated = signet_server::openapi::document_json();
    let committed = std::fs::read_to_string(committed_path()).unwrap_or_default();
    if std::env::var_os("SIGNET_UPDATE_OPENAPI").is_some() {
        std::fs::write(committed_path(), format!("{generated}\n")).expect("write openapi.json");
        return;
    }
    assert_eq!(
        committed.trim_end(),
        generated.trim_end(),
        "openapi.json is out of date: run \
         `SIGNET_UPDATE_OPENAPI=1 cargo nextest run --workspace -E 'binary(e2e) & test(/^openapi::/)'`"
    );
}

#[test]
fn schemas_use_the_specs_object_names() {
    let document: Value = serde_json::from_str(&signet_server::openapi::document_json()).expect("json");
    assert_eq!(document["openapi"], "3.1.0");
    let schemas = &document["components"]["schemas"];
    let spec_names = ["Department", "DeleteDepartmentRequest", "BulkDeleteDepartmentRequest", "ProblemDetails"];
    for name in spec_names
        .into_iter()
        .chain(["StampBulk", "StampItem", "GetArticleCodesInput"])
        .chain(["StampInvoiceRequest", "StampInvoiceResponse"])
        .chain(["CustomerReferralCreateRequest", "CrmLeadUpsertRequest", "CrmLeadMarkPushedRequest"])
    {
        assert!(schemas[name].is_object(), "schema {name} missing");
    }
    assert!(schemas["Department"]["properties"]["departmentID"].is_object());
}

#[test]
fn operation_ids_are_unique() {
    let document: Value = serde_json::from_str(&signet_server::openapi::document_json()).expect("json");
    let mut seen = std::collections::BTreeMap::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("item") {
            let id = operation["operationId"].as_str().expect("operationId").to_string();
            if let Some(other) = seen.insert(id.clone(), format!("{method} {path}")) {
                panic!("operationId {id} is used by {other} and {method} {path}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_documented_operation_is_routed_and_served() {
    let app = signet_testkit::server::spawn(Backend::Sqlite).await;
    let served: Value =
        app.client.get(app.url("/api/v1/openapi.json")).send().await.expect("get").json().await.expect("json");
    let document: Value = serde_json::from_str(&signet_server::openapi::document_json()).expect("json");
    assert_eq!(served, document);
    let paths = document["paths"].as_object().expect("paths");
    assert!(paths.len() >= 9);
    let mut operations = 0;
    for (path, item) in paths {
        let concrete = path.replace("{departmentId}", "1").replace("{id}", "1").replace("{transactionNumber}", "SGN1");
        for method in item.as_object().expect("item").keys() {
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let response = app.client.request(method.clone(), app.url(&concrete)).send().await.expect("send");
            let body: Value = response.json().await.unwrap_or(Value::Null);
            let code = body["code"].as_str().unwrap_or_default();
            assert!(
                code != "route_not_found" && code != "method_not_allowed",
                "{method} {path} is documented but not routed"
            );
            operations += 1;
        }
    }
    assert!(operations >= 12);
}

#[test]
fn only_the_document_viewer_and_operations_endpoints_are_undocumented() {
    let document: Value = serde_json::from_str(&signet_server::openapi::document_json()).expect("json");
    for path in signet_server::app::UNDOCUMENTED_ROUTES {
        assert!(document["paths"][path].is_null(), "{path} is both documented and listed as undocumented");
        let api_operation = path.starts_with("/api/v1/") && path != "/api/v1/openapi.json";
        assert!(!api_operation, "{path}: API operations must be registered through openapi::api_router");
    }
}

/// The committed document passes Spectral's recommended OpenAPI rules (`spectral:oas`) with no
/// error, the linter the clients' generators trust (`clients/openapi-lint`, installed by
/// scripts/install-test-deps.sh). Warnings are reported, not failed.
#[test]
fn the_document_passes_spectral_with_no_error() {
    let lint_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients/openapi-lint");
    let output = std::process::Command::new("npm")
        .args(["run", "-s", "lint"])
        .current_dir(&lint_dir)
        .output()
        .expect("npm (Node.js 20+) must be installed: scripts/install-test-deps.sh");
    let report = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "Spectral found errors in openapi.json (or did not run):\n{report}");
}
