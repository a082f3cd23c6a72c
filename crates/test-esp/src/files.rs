//! The data folder: plain files, so that a developer can read and edit them.
//!
//! | file | what |
//! |---|---|
//! | `esp.key`, `esp.cer`, `esp.pem` | the response-signing key (RSA-2048) and its self-signed certificate |
//! | `ca.key`, `ca.cer`, `ca.pem` | the test eSign CA (EC P-256) that issues signer certificates |
//! | `ocsp.key`, `ocsp.cer` | the OCSP responder's key and certificate (issued by the CA) |
//! | `asps.json` | registered ASPs: `{ "<aspId>": "<PEM certificate>" }`, re-read on each request |
//! | `identities.json` | the residents the ESP knows (Aadhaar number, VID, name, …) |
//! | `txns.jsonl` | `txn` values seen per ASP (replay protection across restarts), pruned by age |
//! | `issued.jsonl` | serial numbers of issued signer certificates (the OCSP responder's record) |

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use signet_sigcrypto::pki;

/// Longest ASP id accepted at registration.
const MAX_ASP_ID_CHARS: usize = 64;
/// Largest `asps.json` or `identities.json` read (hundreds of entries fit).
const MAX_JSON_FILE_BYTES: u64 = 4 << 20;

pub fn ca_certificate_path(dir: &Path) -> PathBuf {
    dir.join("ca.cer")
}

pub fn esp_certificate_path(dir: &Path) -> PathBuf {
    dir.join("esp.cer")
}

fn registry_path(dir: &Path) -> PathBuf {
    dir.join("asps.json")
}

fn identities_path(dir: &Path) -> PathBuf {
    dir.join("identities.json")
}

/// Writes a file whole or not at all (a reader never sees half of it): a temporary file in the
/// same folder, then a rename. `secret` files are readable by their owner only.
pub fn write_atomically(path: &Path, bytes: &[u8], secret: bool) -> anyhow::Result<()> {
    use std::io::Write as _;
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temporary = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut file = options.open(&temporary).with_context(|| format!("cannot write {}", temporary.display()))?;
    file.write_all(bytes).with_context(|| format!("cannot write {}", temporary.display()))?;
    file.sync_all().with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Reads a JSON file of ours, refusing files too large to be ours.
fn read_json_file<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Option<T>> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    if metadata.len() > MAX_JSON_FILE_BYTES {
        bail!("{} is larger than {} bytes", path.display(), MAX_JSON_FILE_BYTES);
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let value = serde_json::from_slice(&bytes).with_context(|| format!("{} is not valid JSON", path.display()))?;
    Ok(Some(value))
}

// ---------------------------------------------------------------------------------------------
// ASP registry
// ---------------------------------------------------------------------------------------------

/// An ASP id as the registry accepts it: what fits in an XML attribute and a log line, with no
/// white space (the replay record separates the ASP from the txn with a space).
fn check_asp_id(asp_id: &str) -> anyhow::Result<()> {
    if asp_id.is_empty() || asp_id.chars().count() > MAX_ASP_ID_CHARS {
        bail!("the ASP id must have 1 to {MAX_ASP_ID_CHARS} characters");
    }
    if asp_id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        bail!("the ASP id must not contain spaces or control characters");
    }
    Ok(())
}

/// Registers (or replaces) an ASP: its id and its request-signing certificate (PEM or DER).
/// Takes effect on a running ESP at its next request.
pub fn register_asp(data_dir: &Path, asp_id: &str, certificate: &[u8]) -> anyhow::Result<()> {
    check_asp_id(asp_id)?;
    let certificates = pki::certs_from_pem_or_der(certificate).context("the ASP certificate is not PEM or DER")?;
    let [certificate] = certificates.as_slice() else {
        bail!("the ASP certificate file must hold exactly one certificate, not {}", certificates.len());
    };
    pki::parse_cert(certificate).context("the ASP certificate cannot be read")?;
    std::fs::create_dir_all(data_dir).with_context(|| format!("cannot create {}", data_dir.display()))?;
    let path = registry_path(data_dir);
    let mut registry: BTreeMap<String, String> = read_json_file(&path)?.unwrap_or_default();
    registry.insert(asp_id.to_string(), pki::cert_der_to_pem(certificate));
    let json = serde_json::to_vec_pretty(&registry)?;
    write_atomically(&path, &json, false)
}

/// The certificate registered for `asp_id` (DER), read from `asps.json` now, so that
/// registrations reach a running ESP. An unreadable registry knows no ASP (and says so in
/// the log).
pub fn registered_asp_certificate(data_dir: &Path, asp_id: &str) -> Option<Vec<u8>> {
    let registry: BTreeMap<String, String> = match read_json_file(&registry_path(data_dir)) {
        Ok(registry) => registry?,
        Err(error) => {
            tracing::warn!("the ASP registry cannot be read: {error:#}");
            return None;
        }
    };
    let pem = registry.get(asp_id)?;
    pki::certs_from_pem_or_der(pem.as_bytes()).ok()?.into_iter().next()
}

// ---------------------------------------------------------------------------------------------
// Identities
// ---------------------------------------------------------------------------------------------

/// A resident the test ESP knows, as Aadhaar eKYC would describe them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    /// 12 digits.
    pub aadhaar: String,
    /// Virtual ID: 16 digits, usable instead of the Aadhaar number.
    pub vid: String,
    /// The name put into the signer certificate.
    pub name: String,
    pub year_of_birth: u16,
    /// `M`, `F` or `T`.
    pub gender: String,
    /// Where the OTP "goes" (shown masked).
    pub mobile: String,
    pub email: String,
}

impl Identity {
    /// `******3210`: what the OTP page and the outbox show of the mobile number.
    pub fn masked_mobile(&self) -> String {
        mask_all_but_last_four(&self.mobile)
    }

    /// `XXXX XXXX 7058`, as UIDAI prints a masked Aadhaar number.
    pub fn masked_aadhaar(&self) -> String {
        let digits: Vec<char> = self.aadhaar.chars().collect();
        let last: String = digits[digits.len().saturating_sub(4)..].iter().collect();
        format!("XXXX XXXX {last}")
    }
}

fn mask_all_but_last_four(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let keep = chars.len().saturating_sub(4);
    chars.iter().enumerate().map(|(i, c)| if i < keep { '*' } else { *c }).collect()
}

/// The three residents `identities.json` starts with (numbers in the 9999 range UIDAI's test
/// data uses; not real people).
pub fn example_identities() -> Vec<Identity> {
    let identity =
        |aadhaar: &str, vid: &str, name: &str, year_of_birth, gender: &str, mobile: &str, email: &str| Identity {
            aadhaar: aadhaar.into(),
            vid: vid.into(),
            name: name.into(),
            year_of_birth,
            gender: gender.into(),
            mobile: mobile.into(),
            email: email.into(),
        };
    vec![
        identity("999941057058", "9999410570581234", "Asha Verma", 1988, "F", "9876543210", "asha.verma@example.in"),
        identity("999971658847", "9999716588475678", "Ravi Kumar", 1975, "M", "9123456780", "ravi.kumar@example.in"),
        identity("999922223333", "9999222233339012", "Meera Iyer", 1996, "F", "9988776655", "meera.iyer@example.in"),
    ]
}

/// Writes the example identities unless `identities.json` exists.
pub fn ensure_identities(data_dir: &Path) -> anyhow::Result<()> {
    let path = identities_path(data_dir);
    if path.exists() {
        return Ok(());
    }
    write_atomically(&path, &serde_json::to_vec_pretty(&example_identities())?, false)
}

/// What the signer typed, as digits: 12 (Aadhaar number) or 16 (VID); spaces and hyphens,
/// as people write them, are dropped.
pub fn aadhaar_or_vid(typed: &str) -> Option<String> {
    let digits: String = typed.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    (matches!(digits.len(), 12 | 16) && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The identity with this Aadhaar number or VID, read from `identities.json` now (edits take
/// effect at once).
pub fn find_identity(data_dir: &Path, number: &str) -> anyhow::Result<Option<Identity>> {
    let identities: Vec<Identity> = read_json_file(&identities_path(data_dir))?.unwrap_or_default();
    Ok(identities.into_iter().find(|i| i.aadhaar == number || i.vid == number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_as_people_write_them() {
        assert_eq!(aadhaar_or_vid("9999 4105 7058").as_deref(), Some("999941057058"));
        assert_eq!(aadhaar_or_vid("9999-4105-7058-1234").as_deref(), Some("9999410570581234"));
        assert_eq!(aadhaar_or_vid("99994105705"), None);
        assert_eq!(aadhaar_or_vid("99994105705x"), None);
        assert_eq!(aadhaar_or_vid("९९९९४१०५७०५८"), None, "ASCII digits only");
    }

    #[test]
    fn masks_keep_the_last_four() {
        let asha = &example_identities()[0];
        assert_eq!(asha.masked_mobile(), "******3210");
        assert_eq!(asha.masked_aadhaar(), "XXXX XXXX 7058");
        assert_eq!(mask_all_but_last_four("12"), "12");
    }

    #[test]
    fn registration_refuses_what_it_cannot_use() {
        let dir = tempfile::tempdir().expect("tempdir");
        let asp = pki::self_signed_rsa("ASP", 2048).expect("cert");
        assert!(register_asp(dir.path(), "", &asp.cert_der).is_err());
        assert!(register_asp(dir.path(), "two words", &asp.cert_der).is_err());
        assert!(register_asp(dir.path(), "ASP", b"not a certificate").is_err());
        register_asp(dir.path(), "ASP-1", asp.cert_pem().as_bytes()).expect("PEM");
        register_asp(dir.path(), "ASP-2", &asp.cert_der).expect("DER");
        assert_eq!(registered_asp_certificate(dir.path(), "ASP-1"), Some(asp.cert_der.clone()));
        assert_eq!(registered_asp_certificate(dir.path(), "ASP-3"), None);
    }
}
