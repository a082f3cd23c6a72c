//! The workspace's layers (DESIGN.md §6), checked on each crate's own dependencies: arrows
//! point down only, the store is the only crate that names sqlx, and neither the domain, the
//! use cases nor the engine crates know HTTP.

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

fn assert_free_of(krate: &str, forbidden: &[&str]) {
    let deps = dependencies(krate);
    for name in forbidden {
        assert!(!deps.contains(*name), "crates/{krate} must not depend on {name}: {deps:?}");
    }
}

const HTTP: [&str; 5] = ["axum", "tower", "tower-http", "utoipa", "utoipa-axum"];
const UPPER: [&str; 4] = ["signet-server", "signet-api", "signet-web", "signet-services"];

#[test]
fn only_the_store_names_sqlx() {
    for krate in
        ["domain", "services", "api", "web", "server", "blob", "pdf", "sigcrypto", "signing", "gateway", "signet"]
    {
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
    assert_free_of("services", &["signet-server", "signet-api", "signet-web", "askama"]);
}

#[test]
fn the_faces_point_down_only() {
    assert_free_of("api", &["signet-server", "signet-web"]);
    assert_free_of("web", &["signet-server"]);
    assert_free_of("store", &UPPER);
}

/// The faces reach data only through the use cases, which decide who may do what to whose
/// resource (issue 30): neither names the store (the services' handle on it is private to
/// them, and the rows they hand out are named from `signet_services::records`).
#[test]
fn the_faces_never_reach_the_store() {
    for face in ["api", "web"] {
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
