//! A crypto token for tests: a SoftHSM2 token (Debian `softhsm2`) set up by its own tools
//! (`softhsm2-util`, and OpenSC's `pkcs11-tool` for the certificates), holding an RSA and an
//! EC signer from a test CA, plus the CA's certificate (not for signing). Programs that use
//! it get `SOFTHSM2_CONF` from [`SoftToken::conf`] (the module reads it when it is loaded).

use std::path::{Path, PathBuf};
use std::process::Command;

use signet_sigcrypto::pki::{IssuedCert, KeyAlgo, LocalCa};

/// SoftHSM2's PKCS#11 module.
pub const MODULE: &str = "/usr/lib/softhsm/libsofthsm2.so";
pub const PIN: &str = "123456";
pub const LABEL: &str = "Signer Token";
/// The token's signers: key id, name, key algorithm.
pub const SIGNERS: [(&str, &str, KeyAlgo); 2] =
    [("01", "Asha Verma", KeyAlgo::Rsa2048), ("02", "Ravi Kumar", KeyAlgo::EcP256)];

pub struct SoftToken {
    pub dir: tempfile::TempDir,
    pub ca: LocalCa,
}

impl SoftToken {
    pub fn new() -> SoftToken {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path().to_path_buf();
        std::fs::create_dir_all(d.join("tokens")).expect("tokens");
        let settings = format!(
            "directories.tokendir = {}\nobjectstore.backend = file\nlog.level = ERROR\n",
            d.join("tokens").display()
        );
        let token = SoftToken { ca: LocalCa::generate("Token Test CA").expect("ca"), dir };
        std::fs::write(token.conf(), settings).expect("conf");
        token
            .tool("softhsm2-util", &["--init-token", "--free", "--label", LABEL, "--so-pin", "12345678", "--pin", PIN]);
        for (id, name, algo) in SIGNERS {
            let issued = token.ca.issue_signer(name, algo).expect("signer");
            token.add_signer(id, name, &issued);
        }
        let ca = d.join("ca.der");
        std::fs::write(&ca, token.ca.cert_der()).expect("ca");
        token.write_certificate(&ca, "03", "CA");
        token
    }

    /// Puts a signer's key and certificate on the token under `id` (hex) and `name`.
    pub fn add_signer(&self, id: &str, name: &str, issued: &IssuedCert) {
        let d = self.dir.path();
        let (key, cert) = (d.join(format!("{id}.key")), d.join(format!("{id}.der")));
        std::fs::write(&key, issued.key_pem()).expect("key");
        std::fs::write(&cert, &issued.cert_der).expect("cert");
        let key = key.display().to_string();
        self.tool("softhsm2-util", &["--import", &key, "--token", LABEL, "--label", name, "--id", id, "--pin", PIN]);
        self.write_certificate(&cert, id, name);
    }

    /// The file SOFTHSM2_CONF must name.
    pub fn conf(&self) -> PathBuf {
        self.dir.path().join("softhsm2.conf")
    }

    fn tool(&self, program: &str, args: &[&str]) {
        let out =
            Command::new(program).args(args).env("SOFTHSM2_CONF", self.conf()).output().unwrap_or_else(|e| {
                panic!("{program} (scripts/install-test-deps.sh installs softhsm2 and opensc): {e}")
            });
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{program} {args:?}: {text}");
    }

    fn write_certificate(&self, file: &Path, id: &str, label: &str) {
        let file = file.display().to_string();
        let args = [
            "--module",
            MODULE,
            "--token-label",
            LABEL,
            "--login",
            "--pin",
            PIN,
            "--write-object",
            &file,
            "--type",
            "cert",
            "--id",
            id,
            "--label",
            label,
        ];
        self.tool("pkcs11-tool", &args);
    }
}

impl Default for SoftToken {
    fn default() -> Self {
        Self::new()
    }
}

/// The `signet-bridge` binary of this workspace build (next to the test's own executable's
/// folder; `cargo nextest run --workspace` builds it).
pub fn bridge_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe.parent().and_then(Path::parent).expect("target dir");
    let bin = dir.join("signet-bridge");
    assert!(bin.exists(), "{} is missing: build the workspace (cargo build --workspace)", bin.display());
    bin
}
