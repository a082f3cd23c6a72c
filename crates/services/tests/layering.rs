//! The workspace's layers (DESIGN.md §6), checked on each crate's own dependencies and on the
//! paths its code names (`use sqlx::…`, `signet_store::Store`): arrows point down only, the
//! store is the only crate that names sqlx, and neither the domain, the use cases nor the
//! engine crates know HTTP. The manifest alone would let a path slip in through a dependency
//! that re-exports it, or through a macro; the code is read as plain text, so this stays fast.

use std::collections::BTreeSet;
use std::path::Path;

/// The names in a crate's `[dependencies]` table (not dev- or build-dependencies).
fn dependencies(krate: &str) -> BTreeSet<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut names = BTreeSet::new();
    let mut in_dependencies = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if in_dependencies && let Some((name, _)) = line.split_once('=') {
            let name = name.trim().trim_end_matches(".workspace").to_string();
            if !name.is_empty() && !name.starts_with('#') {
                names.insert(name);
            }
        }
    }
    names
}

/// The crates a piece of Rust code names by path: every identifier that starts a path
/// (`sqlx::query`, `signet_store::Store`, `::tokio::spawn`) or that `use`/`extern crate` name
/// alone. Line comments are skipped; a path in a string counts (a false alarm there is cheap).
fn named_paths(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let code = code.split(" //").next().unwrap_or_default();
        let bytes = code.as_bytes();
        let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut i = 0;
        while i < bytes.len() {
            if !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_ident(bytes[i]) {
                i += 1;
            }
            // The first segment of a path, not a later one (`a::sqlx::b` names `a`).
            let after_separator = code[..start].ends_with("::");
            let global = after_separator && (start < 3 || !is_ident(bytes[start - 3]));
            let first = start == 0 || !is_ident(bytes[start - 1]) && (!after_separator || global);
            if first && code[i..].starts_with("::") {
                names.insert(code[start..i].to_string());
            }
        }
        for prefix in ["use ", "pub use ", "pub(crate) use ", "extern crate "] {
            if let Some(rest) = code.strip_prefix(prefix) {
                names.insert(rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect());
            }
        }
    }
    names
}

/// Where the code under crates/{krate}/src names one of `crates` (manifest names): `file: name`.
fn code_naming(krate: &str, crates: &[&str]) -> Vec<String> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("src");
    let mut found = Vec::new();
    for file in rust_files(&sources) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let named = named_paths(&text);
        for name in crates {
            if named.contains(&name.replace('-', "_")) {
                found.push(format!("{}: {name}", file.display()));
            }
        }
    }
    found
}

fn assert_free_of(krate: &str, forbidden: &[&str]) {
    let deps = dependencies(krate);
    for name in forbidden {
        assert!(!deps.contains(*name), "crates/{krate} must not depend on {name}: {deps:?}");
    }
    let named = code_naming(krate, forbidden);
    assert!(named.is_empty(), "crates/{krate} must not use these crates in its code: {named:#?}");
}

const HTTP: [&str; 5] = ["axum", "tower", "tower-http", "utoipa", "utoipa-axum"];
const UPPER: [&str; 5] = ["signet-server", "signet-api", "signet-web", "signet-http", "signet-services"];

#[test]
fn only_the_store_names_sqlx() {
    for krate in [
        "domain",
        "services",
        "http",
        "api",
        "web",
        "server",
        "blob",
        "pdf",
        "sigcrypto",
        "signing",
        "gateway",
        "signet",
    ] {
        assert_free_of(krate, &["sqlx"]);
    }
    assert!(dependencies("store").contains("sqlx"));
}

#[test]
fn the_domain_has_no_http_sql_or_io_crates() {
    assert_free_of("domain", &HTTP);
    assert_free_of("domain", &["sqlx", "tokio", "signet-store", "signet-blob", "object_store", "lettre"]);
}

#[test]
fn services_know_no_http() {
    assert_free_of("services", &HTTP);
    assert_free_of("services", &["signet-server", "signet-api", "signet-web", "signet-http", "askama"]);
}

/// The two faces stand side by side on `signet-http`: neither names the other, and what
/// both need lives below them, never in one of them.
#[test]
fn the_faces_point_down_only() {
    assert_free_of("api", &["signet-server", "signet-web"]);
    assert_free_of("web", &["signet-server", "signet-api"]);
    assert_free_of("http", &["signet-server", "signet-api", "signet-web"]);
    assert_free_of("store", &UPPER);
}

/// The faces reach data only through the use cases, which decide who may do what to whose
/// resource (issue 30): none names the store (the services' handle on it is private to
/// them, and the rows they hand out are named from `signet_services::records`).
#[test]
fn the_faces_never_reach_the_store() {
    for face in ["http", "api", "web"] {
        assert_free_of(face, &["signet-store"]);
        let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(face).join("src");
        for file in rust_files(&sources) {
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert!(!text.contains("signet_store"), "{} names signet_store", file.display());
        }
    }
}

/// Every `.rs` file under `dir` (the tree is the workspace's own, a few levels deep).
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap_or_else(|e| panic!("{}: {e}", next.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn the_engine_is_free_of_server_and_store() {
    for krate in ["pdf", "sigcrypto", "signing", "gateway"] {
        assert_free_of(krate, &UPPER);
        assert_free_of(krate, &["signet-store", "sqlx"]);
        assert_free_of(krate, &HTTP);
    }
}

/// DESIGN.md §6's layers, bottom first: a crate may name only crates of lower layers. The
/// side crates (client SDK, bridge, test kit, test ESP, stamp simulator) stand apart.
const LAYERS: [&[&str]; 8] = [
    &["locale"],
    &["domain", "sigcrypto", "pdf", "gateway"],
    &["store", "blob", "signing", "esign"],
    &["services"],
    &["http"],
    // The two faces share a layer, so neither may name the other.
    &["api", "web"],
    &["server"],
    &["signet"],
];

#[test]
fn nothing_points_back_up() {
    for (layer, crates) in LAYERS.iter().enumerate() {
        // The manifest names: `signet-x` for each library, `signet` for the binary.
        let not_below: Vec<String> = LAYERS[layer..]
            .iter()
            .flat_map(|l| l.iter())
            .map(|c| if *c == "signet" { c.to_string() } else { format!("signet-{c}") })
            .collect();
        let not_below: Vec<&str> = not_below.iter().map(String::as_str).collect();
        for krate in *crates {
            assert_free_of(krate, &not_below);
        }
    }
}

#[test]
fn paths_are_read_as_the_compiler_would() {
    let code = "use sqlx::Row;\nuse tokio;\n// axum::Router in a comment\nlet a = crate::tower::x(); \
                let b = ::http::Method::GET; let c = signet_store::Store::open(); // object_store::x\n";
    let named = named_paths(code);
    for name in ["sqlx", "tokio", "crate", "http", "signet_store"] {
        assert!(named.contains(name), "{name} in {named:?}");
    }
    for name in ["axum", "tower", "Method", "Store", "Row", "object_store"] {
        assert!(!named.contains(name), "{name} in {named:?}");
    }
}
