//! Puts the bridge's CA into the signer's certificate stores, so that browsers accept the
//! loopback HTTPS service without a warning: on Linux the NSS databases that Chromium, Chrome
//! (`~/.pki/nssdb`, made if missing) and Firefox (each profile) read, through NSS's `certutil`
//! (Debian package `libnss3-tools`); on Windows the user's root store (`certutil.exe -user`);
//! on macOS the login keychain (`security add-trusted-cert`). All three act for the current
//! user only, without administrator rights.
//!
//! The CA is constrained to loopback names ([`signet_sigcrypto::pki::LocalCa::generate_loopback_only`]),
//! so trusting it lets it vouch for this computer's own services and nothing else.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The name the CA is stored under.
pub const NICKNAME: &str = "Signet bridge (this computer)";

/// Installs `ca_pem` for the current user; answers the stores it went into.
pub fn install(ca_pem: &Path) -> Result<Vec<String>, String> {
    match std::env::consts::OS {
        "linux" | "freebsd" | "openbsd" | "netbsd" => install_nss(ca_pem),
        "windows" => {
            run(Command::new("certutil.exe").args(["-user", "-addstore", "-f", "Root"]).arg(ca_pem))?;
            Ok(vec!["Windows user root store".into()])
        }
        "macos" => {
            let home = home()?;
            let keychain = home.join("Library/Keychains/login.keychain-db");
            run(Command::new("security")
                .args(["add-trusted-cert", "-r", "trustRoot", "-k"])
                .arg(&keychain)
                .arg(ca_pem))?;
            Ok(vec![keychain.display().to_string()])
        }
        other => {
            Err(format!("installing the certificate on {other} is not supported; trust {} by hand", ca_pem.display()))
        }
    }
}

fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME").map(PathBuf::from).ok_or_else(|| "HOME is not set".to_string())
}

fn run(command: &mut Command) -> Result<(), String> {
    let program = command.get_program().to_string_lossy().to_string();
    let output = command.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound if program == "certutil" => {
            "NSS's certutil is missing (Debian/Ubuntu: apt install libnss3-tools; Fedora: dnf install nss-tools)"
                .to_string()
        }
        _ => format!("{program}: {e}"),
    })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    Err(format!("{program} failed: {}", stderr.lines().next().unwrap_or("no message").trim()))
}

/// The NSS databases of this user: Chromium's shared one (made if missing) and Firefox's
/// profiles (native and snap) that exist.
fn nss_databases(home: &Path) -> Vec<PathBuf> {
    let mut databases = vec![home.join(".pki/nssdb")];
    for firefox in [home.join(".mozilla/firefox"), home.join("snap/firefox/common/.mozilla/firefox")] {
        let Ok(entries) = std::fs::read_dir(&firefox) else { continue };
        databases.extend(entries.flatten().map(|e| e.path()).filter(|p| p.join("cert9.db").exists()));
    }
    databases
}

fn install_nss(ca_pem: &Path) -> Result<Vec<String>, String> {
    let home = home()?;
    let mut installed = Vec::new();
    for database in nss_databases(&home) {
        let store = format!("sql:{}", database.display());
        if !database.join("cert9.db").exists() {
            std::fs::create_dir_all(&database).map_err(|e| format!("{}: {e}", database.display()))?;
            run(Command::new("certutil").args(["-N", "--empty-password", "-d", &store]))?;
        }
        // "C,,": a CA trusted to issue server certificates (not mail or code signing).
        run(Command::new("certutil").args(["-A", "-d", &store, "-t", "C,,", "-n", NICKNAME, "-i"]).arg(ca_pem))?;
        installed.push(database.display().to_string());
    }
    Ok(installed)
}
