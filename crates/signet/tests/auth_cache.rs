//! The cache of what authenticated requests check about their principal (security stamp,
//! state, role) never weakens revocation beyond the bound the docs state:
//! - on PostgreSQL, a principal disabled by another process (here the CLI, writing straight to
//!   the database) is refused by every instance at once, although their cache would keep
//!   answers for ten minutes: the triggers' notifications empty it;
//! - on SQLite, a principal disabled by another process on the same file is refused once
//!   `auth_cache_ms` has passed.
//!
//! Changes made through an instance take effect at once on it; the API tests (sessions ended,
//! roles changed, users disabled) prove that with the cache on, as it is by default.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use signet_testkit::blocking::{Blocking, blocking_client};
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

const SIGNET: SignetBin = signet_bin!();

fn tenant(dir: &Path, database_url: &str) -> Value {
    let output = SIGNET.run(
        &["tenant", "create", "--name", "Acme", "--admin-email", "ops@acme.test", "--database-url", database_url],
        dir,
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("json")
}

fn sign_in(http: &Blocking, base: &str, tenant: &Value) -> String {
    let body = json!({"grant_type": "password", "username": "ops@acme.test", "password": tenant["admin_password"]});
    let reply = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().expect("token").json();
    reply["access_token"].as_str().expect("access token").to_string()
}

fn me(http: &Blocking, base: &str, token: &str) -> u16 {
    http.get(format!("{base}/api/v1/users/me")).bearer(token).send().expect("me").code()
}

fn disable_from_the_cli(dir: &Path, database_url: &str, tenant: &Value) {
    let tenant_id = tenant["tenant_id"].to_string();
    let args =
        ["user", "disable", "--tenant-id", &tenant_id, "--email", "ops@acme.test", "--database-url", database_url];
    let output = SIGNET.run(&args, dir);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn on_postgres_every_instance_refuses_a_principal_disabled_elsewhere_at_once() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let url = rt.block_on(signet_testkit::db::fresh_postgres_database());
    let dirs = [tempfile::tempdir().expect("dir a"), tempfile::tempdir().expect("dir b")];
    let ten_minutes = [("SIGNET_AUTH_CACHE_MS", "600000")];
    let args = ["--database-url", url.as_str()];
    let a = SIGNET.serve(&args, dirs[0].path(), &ten_minutes);
    let b = SIGNET.serve(&args, dirs[1].path(), &ten_minutes);
    let tenant = tenant(dirs[0].path(), &url);
    let http = blocking_client();
    let token = sign_in(&http, &a.base, &tenant);
    // Both instances have now checked, and cached, the principal.
    assert_eq!((me(&http, &a.base, &token), me(&http, &b.base, &token)), (200, 200));

    disable_from_the_cli(dirs[0].path(), &url, &tenant);
    // The notification travels in milliseconds; ten seconds only keeps a loaded machine from
    // failing the test, and is still sixty times shorter than the cache's own lifetime.
    let deadline = Instant::now() + Duration::from_secs(10);
    let refused = loop {
        let codes = (me(&http, &a.base, &token), me(&http, &b.base, &token));
        if codes == (401, 401) || Instant::now() > deadline {
            break codes;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(refused, (401, 401), "both instances refuse the disabled principal");
}

#[test]
fn on_sqlite_a_change_by_another_process_is_seen_within_the_cache_lifetime() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("signet-data")).expect("data dir");
    let url = format!("sqlite://{}", dir.path().join("signet-data/signet.db").display());
    let server = SIGNET.serve(&["--database-url", &url], dir.path(), &[("SIGNET_AUTH_CACHE_MS", "500")]);
    let tenant = tenant(dir.path(), &url);
    let http = blocking_client();
    let token = sign_in(&http, &server.base, &tenant);
    assert_eq!(me(&http, &server.base, &token), 200);

    disable_from_the_cli(dir.path(), &url, &tenant);
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(me(&http, &server.base, &token), 401, "refused once auth_cache_ms has passed");
}
