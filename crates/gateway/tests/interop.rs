//! Interop: independent Python (`cryptography`) and Node (`crypto`) clients (the gateway helpers
//! of `clients/python` and `clients/typescript`) and Java's (`clients/java`) seal requests the
//! way real integrations do; the gateway opens them; the gateway seals a `Returnvalue` and the
//! scripts open it. A missing interpreter or package fails the test (CI installs them):
//! set SIGNET_SKIP_INTEROP=1 to skip on a machine without them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};
use signet_gateway::{
    DEFAULT_WINDOW, Document, GatewayKey, KeyBits, Profile, RawParams, open_request, parse_payload, seal_result,
};
use time::OffsetDateTime;

fn key() -> &'static (GatewayKey, tempfile::TempDir) {
    static KEY: OnceLock<(GatewayKey, tempfile::TempDir)> = OnceLock::new();
    KEY.get_or_init(|| {
        let key = GatewayKey::generate(KeyBits::Rsa2048, "Signet gateway (test)", 30).expect("key generation");
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("gateway.pem"), key.certificate_pem().expect("pem")).expect("write");
        std::fs::write(dir.path().join("gateway.cer"), key.certificate_der().expect("der")).expect("write");
        (key, dir)
    })
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop").join(name)
}

/// The gateway helpers the client packages ship, run as scripts: Python's
/// `signet_client.gateway` and Node's `@signet/client/gateway`.
fn client(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients").join(path)
}
const PYTHON_CLIENT: &str = "python/signet_client/gateway.py";
const NODE_CLIENT: &str = "typescript/gateway.js";

fn skip() -> bool {
    std::env::var("SIGNET_SKIP_INTEROP").is_ok_and(|v| v == "1")
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(out.status.success(), "{program} {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn payload() -> Value {
    // Key spellings as real clients send them (FileType, AuthToken, FUrl, CUrl), booleans as JSON.
    json!({
        "FileType": "PDF",
        "File": "JVBERi0xLjcKJcOkw7zDtsOfCjEgMCBvYmoKPDw+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK",
        "IsCompressed": false,
        "ReferenceNumber": "INTEROP-0001",
        "Name": "Asha Rao — ✓",
        "AuthToken": "token-abc",
        "SignatureType": "4",
        "SelectPage": "FIRST",
        "SignaturePosition": "Bottom-Right",
        "EnableDrawSignature": true,
        "Enablefontsignature": "TRUE",
        "SUrl": "https://app.example/ok",
        "FUrl": "https://app.example/fail",
        "CUrl": "https://app.example/cancel"
    })
}

fn round_trip(program: &str, client_path: &str, cert_file: &str, profile: Profile) {
    if skip() {
        return;
    }
    round_trip_with(program, &[client(client_path).to_str().unwrap_or("").to_owned()], program, cert_file, profile);
}

/// `command` is the program's leading arguments (the script, or `-cp dir JavaHarness`).
fn round_trip_with(program: &str, command: &[String], label: &str, cert_file: &str, profile: Profile) {
    let (key, dir) = key();
    let payload_path = dir.path().join(format!("payload-{label}-{profile:?}.json"));
    std::fs::write(&payload_path, payload().to_string()).expect("write payload");
    let profile_arg = if profile == Profile::Modern { "modern" } else { "legacy" };
    let cert = dir.path().join(cert_file);
    let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
    args.extend(["seal", cert.to_str().unwrap_or(""), profile_arg, payload_path.to_str().unwrap_or("")]);
    let out = run(program, &args);
    let fields: Value = serde_json::from_str(&out).expect("script output is JSON");
    let text = |k: &str| fields[k].as_str().map(str::to_owned);
    let params = RawParams {
        p1: text("Parameter1").expect("P1"),
        p2: text("Parameter2").expect("P2"),
        p3: text("Parameter3"),
        profile: text("Profile"),
    };
    let opened = open_request(&params, key, OffsetDateTime::now_utc(), DEFAULT_WINDOW).expect("gateway opens it");
    assert_eq!(opened.profile, profile);
    assert_eq!(hex(opened.session.as_bytes()), text("SessionKey").expect("key"));
    let parsed = parse_payload(&opened.payload_json).expect("payload valid");
    assert_eq!(parsed.reference_number, "INTEROP-0001");
    assert_eq!(parsed.urls.failure, "https://app.example/fail");
    let Document::Pdf { options, .. } = &parsed.document else { panic!("a PDF") };
    assert_eq!(options.name, "Asha Rao — ✓");
    assert!(options.esignature.draw && options.esignature.font && !options.esignature.upload);

    // And back: the gateway seals the signed bytes, the script opens them.
    let signed: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let rv = seal_result(&opened.session, opened.profile, &signed).expect("seal");
    let key_hex = hex(opened.session.as_bytes());
    let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
    args.extend(["open", profile_arg, &key_hex, &rv]);
    let out = run(program, &args);
    assert_eq!(signet_gateway::b64_decode_lenient(out.trim()).expect("base64"), signed);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn python_legacy_pem() {
    round_trip("python3", PYTHON_CLIENT, "gateway.pem", Profile::Legacy);
}

#[test]
fn python_modern_der() {
    round_trip("python3", PYTHON_CLIENT, "gateway.cer", Profile::Modern);
}

#[test]
fn node_legacy_der() {
    round_trip("node", NODE_CLIENT, "gateway.cer", Profile::Legacy);
}

#[test]
fn node_modern_pem() {
    round_trip("node", NODE_CLIENT, "gateway.pem", Profile::Modern);
}

/// The Java package (`clients/java`): its gateway client and its test class.
fn java_sources() -> (PathBuf, PathBuf) {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients/java/src");
    (
        package.join("main/java/dev/signet/gateway/SignetGatewayClient.java"),
        package.join("test/java/dev/signet/gateway/SignetGatewayClientTest.java"),
    )
}

fn javac_found() -> bool {
    if skip() || Command::new("javac").arg("-version").output().is_err() {
        eprintln!("javac not found: Java interop skipped");
        return false;
    }
    true
}

/// Compiles the Java package's client (the class docs/gateway.md §8.1 prints) with a small
/// harness and runs it like the scripts. Skipped when no JDK is installed (`javac`).
fn java_command() -> Option<Vec<String>> {
    static BUILT: OnceLock<Option<tempfile::TempDir>> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        if !javac_found() {
            return None;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path().to_str().unwrap_or("").to_owned();
        let (client, _) = java_sources();
        let harness = script("JavaHarness.java");
        run("javac", &["-d", &d, client.to_str().unwrap_or(""), harness.to_str().unwrap_or("")]);
        Some(dir)
    });
    dir.as_ref().map(|d| vec!["-cp".to_owned(), d.path().to_str().unwrap_or("").to_owned(), "JavaHarness".to_owned()])
}

/// The Java package's own tests (a main class: the JDK has no test framework) pass.
#[test]
fn java_package_tests_pass() {
    if !javac_found() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().unwrap_or("").to_owned();
    let (client, test) = java_sources();
    run("javac", &["-d", &d, client.to_str().unwrap_or(""), test.to_str().unwrap_or("")]);
    assert_eq!(run("java", &["-cp", &d, "dev.signet.gateway.SignetGatewayClientTest"]).trim(), "ok");
}

#[test]
fn java_from_the_guide_legacy_and_modern() {
    let Some(cmd) = java_command() else { return };
    round_trip_with("java", &cmd, "java", "gateway.cer", Profile::Legacy);
    round_trip_with("java", &cmd, "java", "gateway.pem", Profile::Modern);
}

/// The guide quotes the tested Python and Node clients verbatim, names every error code with
/// its text, and every payload field.
#[test]
fn guide_quotes_the_tested_clients() {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/gateway.md")).expect("guide");
    for name in [PYTHON_CLIENT, NODE_CLIENT] {
        let source = std::fs::read_to_string(client(name)).expect("client");
        assert!(guide.contains(&source), "docs/gateway.md must contain {name} verbatim");
    }
    let java = std::fs::read_to_string(java_sources().0).expect("the Java package's client");
    assert!(
        guide.contains(&format!("```java\n{java}```")),
        "docs/gateway.md must print the Java package's client verbatim"
    );
    for code in signet_gateway::ErrorCode::ALL {
        assert!(guide.contains(&format!("| {} | {} |", code.code(), code.text())), "{code}");
    }
    for field in [
        "Filetype",
        "File",
        "IsCompressed",
        "ReferenceNumber",
        "Name",
        "Authtoken",
        "SignatureType",
        "SignerID",
        "IsCosign",
        "SelectPage",
        "PageNumber",
        "PagelevelCoordinates",
        "SignaturePosition",
        "CustomizeCoordinates",
        "PreviewRequired",
        "Enableuploadsignature",
        "Enablefontsignature",
        "EnableDrawSignature",
        "EnableeSignaturePad",
        "Storetodb",
        "EnableViewDocumentLink",
        "SUrl",
        "Furl",
        "Curl",
        "Documentdetails",
        "DocumentName",
        "DocumentURL",
        "DocumentHash",
        "Timestamp",
        "OAEPParameterSpec(\"SHA-256\", \"MGF1\", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT)",
    ] {
        assert!(guide.contains(&format!("`{field}`")) || guide.contains(field), "{field}");
    }
}
