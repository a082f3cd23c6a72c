//! Keys in a PKCS#11 device: an HSM on the server (sealing keys, automated-signing keys) and
//! the signing step shared with the signer utility's USB tokens.
//!
//! A key is found by its CKA_ID, which Signet sets to [`key_id`] of its public key: a
//! certificate alone then names its key, so the database keeps certificates and nothing else.
//! Keys made or imported here are sensitive and non-extractable: they never leave the device.
//!
//! RSA keys sign with CKM_RSA_PKCS over the DER DigestInfo of the digest (what every token
//! supports, unlike the hashing mechanisms); EC keys with CKM_ECDSA over the digest, the raw
//! r||s turned into the DER form CMS expects.

use std::path::Path;
use std::sync::Mutex;

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::AuthPin;
use der::asn1::{BitString, OctetStringRef, UintRef};
use der::{Decode, Encode, Sequence};
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};

use crate::signer::{RawSigner, SigAlg};
use crate::{Error, Result, pki};

/// DER prefix of a SHA-256 DigestInfo (RFC 8017 §9.2 note 1).
const SHA256_DIGEST_INFO: [u8; 19] =
    [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20];
/// Idle sessions kept open for signing; more are opened under load and closed after.
const IDLE_SESSIONS: usize = 8;

fn failed(what: &str, error: impl std::fmt::Display) -> Error {
    Error::Crypto(format!("PKCS#11 {what}: {error}"))
}

/// The CKA_ID of the key whose public key is `spki_der`: the first 20 bytes of its SHA-256.
pub fn key_id(spki_der: &[u8]) -> Vec<u8> {
    pki::sha256(spki_der)[..20].to_vec()
}

/// The CKA_ID of the key a certificate certifies.
pub fn key_id_of_certificate(cert_der: &[u8]) -> Result<Vec<u8>> {
    let cert = pki::parse_cert(cert_der)?;
    let spki = cert.tbs_certificate.subject_public_key_info.to_der().map_err(|e| Error::Encoding(e.to_string()))?;
    Ok(key_id(&spki))
}

/// Signs a SHA-256 digest with a private key of a logged-in session: PKCS#1 v1.5 for RSA,
/// DER ECDSA for P-256.
pub fn sign_digest(session: &Session, key: ObjectHandle, algorithm: SigAlg, digest: &[u8; 32]) -> Result<Vec<u8>> {
    match algorithm {
        SigAlg::RsaPkcs1Sha256 => {
            let mut info = SHA256_DIGEST_INFO.to_vec();
            info.extend_from_slice(digest);
            session.sign(&Mechanism::RsaPkcs, key, &info).map_err(|e| failed("signing", e))
        }
        SigAlg::EcdsaP256Sha256 => {
            let raw = session.sign(&Mechanism::Ecdsa, key, digest).map_err(|e| failed("signing", e))?;
            ecdsa_der(&raw)
        }
    }
}

/// r||s (two equal halves) as the DER `Ecdsa-Sig-Value` CMS and X.509 use.
pub fn ecdsa_der(raw: &[u8]) -> Result<Vec<u8>> {
    if raw.is_empty() || !raw.len().is_multiple_of(2) || raw.len() > 132 {
        return Err(Error::Crypto("an ECDSA signature of unexpected length".into()));
    }
    let (r, s) = raw.split_at(raw.len() / 2);
    let integer = |bytes: &[u8]| {
        let trimmed: Vec<u8> = bytes.iter().copied().skip_while(|b| *b == 0).collect();
        let mut value = if trimmed.is_empty() { vec![0] } else { trimmed };
        if value[0] & 0x80 != 0 {
            value.insert(0, 0);
        }
        let mut out = vec![0x02, value.len() as u8];
        out.extend(value);
        out
    };
    let body: Vec<u8> = [integer(r), integer(s)].concat();
    let mut out = vec![0x30];
    if body.len() >= 0x80 {
        out.push(0x81);
    }
    out.push(body.len() as u8);
    out.extend(body);
    Ok(out)
}

/// RFC 8017 A.1.1.
#[derive(Sequence)]
struct RsaPublicKey<'a> {
    modulus: UintRef<'a>,
    public_exponent: UintRef<'a>,
}

/// RFC 8017 A.1.2 (two-prime keys).
#[derive(Sequence)]
struct RsaPrivateKey<'a> {
    version: u8,
    modulus: UintRef<'a>,
    public_exponent: UintRef<'a>,
    private_exponent: UintRef<'a>,
    prime1: UintRef<'a>,
    prime2: UintRef<'a>,
    exponent1: UintRef<'a>,
    exponent2: UintRef<'a>,
    coefficient: UintRef<'a>,
}

/// RFC 5915 (the curve comes from the PKCS#8 wrapper).
#[derive(Sequence)]
struct EcPrivateKey<'a> {
    version: u8,
    private_key: OctetStringRef<'a>,
    #[asn1(context_specific = "0", optional = "true")]
    _parameters: Option<der::AnyRef<'a>>,
    #[asn1(context_specific = "1", optional = "true")]
    _public_key: Option<der::AnyRef<'a>>,
}

/// A token in an HSM, logged in for the life of this value: the server's keys.
pub struct Hsm {
    pkcs11: Pkcs11,
    slot: Slot,
    /// Holds the login: a token is logged in while any session of the process is open.
    _login: Mutex<Session>,
    idle: Mutex<Vec<Session>>,
}

impl std::fmt::Debug for Hsm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hsm").field("slot", &self.slot.id()).finish_non_exhaustive()
    }
}

impl Hsm {
    /// Loads the module at `module`, finds the token labelled `token_label` and logs in with
    /// `pin` (kept by the module's session, not by Signet).
    pub fn open(module: &Path, token_label: &str, pin: &str) -> Result<Hsm> {
        let pkcs11 = Pkcs11::new(module).map_err(|e| failed(&format!("module {}", module.display()), e))?;
        pkcs11.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK)).map_err(|e| failed("start", e))?;
        let slot = find_token(&pkcs11, token_label)?;
        let login = pkcs11.open_rw_session(slot).map_err(|e| failed("session", e))?;
        match login.login(UserType::User, Some(&AuthPin::new(pin.into()))) {
            Ok(()) | Err(cryptoki::error::Error::Pkcs11(cryptoki::error::RvError::UserAlreadyLoggedIn, _)) => {}
            Err(e) => return Err(failed(&format!("login to token {token_label:?}"), e)),
        }
        Ok(Hsm { pkcs11, slot, _login: Mutex::new(login), idle: Mutex::new(Vec::new()) })
    }

    fn with_session<T>(&self, work: impl FnOnce(&Session) -> Result<T>) -> Result<T> {
        let reused = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let session = match reused {
            Some(session) => session,
            None => self.pkcs11.open_ro_session(self.slot).map_err(|e| failed("session", e))?,
        };
        let result = work(&session);
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < IDLE_SESSIONS
        {
            idle.push(session);
        }
        result
    }

    fn with_rw_session<T>(&self, work: impl FnOnce(&Session) -> Result<T>) -> Result<T> {
        let session = self.pkcs11.open_rw_session(self.slot).map_err(|e| failed("session", e))?;
        work(&session)
    }

    /// Makes an RSA key pair inside the token (private key sensitive, never extractable),
    /// labelled `label` and identified by [`key_id`]; answers its SubjectPublicKeyInfo.
    pub fn generate_rsa(&self, label: &str, bits: u32) -> Result<Vec<u8>> {
        self.with_rw_session(|session| {
            let public_template = [
                Attribute::Token(true),
                Attribute::Private(false),
                Attribute::Verify(true),
                Attribute::Encrypt(false),
                Attribute::Wrap(false),
                // CK_ULONG is a C `unsigned long`: 64 bits on Linux and macOS, 32 on Windows.
                Attribute::ModulusBits(std::ffi::c_ulong::from(bits).into()),
                Attribute::PublicExponent(vec![0x01, 0x00, 0x01]),
                Attribute::Label(label.as_bytes().to_vec()),
            ];
            let private_template = [
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Sensitive(true),
                Attribute::Extractable(false),
                Attribute::Sign(true),
                Attribute::Decrypt(false),
                Attribute::Unwrap(false),
                Attribute::Label(label.as_bytes().to_vec()),
            ];
            let (public, private) = session
                .generate_key_pair(&Mechanism::RsaPkcsKeyPairGen, &public_template, &private_template)
                .map_err(|e| failed("key generation", e))?;
            let spki = rsa_spki_of(session, public)?;
            let id = Attribute::Id(key_id(&spki));
            session.update_attributes(public, std::slice::from_ref(&id)).map_err(|e| failed("key id", e))?;
            session.update_attributes(private, &[id]).map_err(|e| failed("key id", e))?;
            Ok(spki)
        })
    }

    /// Puts a PKCS#8 private key (RSA or P-256) into the token as a sensitive,
    /// non-extractable key labelled `label`; the caller forgets its copy.
    pub fn import_private_key(&self, key_pkcs8_der: &[u8], label: &str) -> Result<()> {
        let info = pkcs8::PrivateKeyInfo::from_der(key_pkcs8_der).map_err(|e| Error::Encoding(e.to_string()))?;
        let spki = pki::public_key_spki_from_pkcs8(key_pkcs8_der)?;
        let mut template = vec![
            Attribute::Class(ObjectClass::PRIVATE_KEY),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Sign(true),
            Attribute::Decrypt(false),
            Attribute::Unwrap(false),
            Attribute::Id(key_id(&spki)),
            Attribute::Label(label.as_bytes().to_vec()),
        ];
        let parsed = SubjectPublicKeyInfoOwned::from_der(&spki).map_err(|e| Error::Encoding(e.to_string()))?;
        match SigAlg::for_spki(&parsed)? {
            SigAlg::RsaPkcs1Sha256 => {
                let key = RsaPrivateKey::from_der(info.private_key).map_err(|e| Error::Encoding(e.to_string()))?;
                template.extend([
                    Attribute::KeyType(KeyType::RSA),
                    Attribute::Modulus(key.modulus.as_bytes().to_vec()),
                    Attribute::PublicExponent(key.public_exponent.as_bytes().to_vec()),
                    Attribute::PrivateExponent(key.private_exponent.as_bytes().to_vec()),
                    Attribute::Prime1(key.prime1.as_bytes().to_vec()),
                    Attribute::Prime2(key.prime2.as_bytes().to_vec()),
                    Attribute::Exponent1(key.exponent1.as_bytes().to_vec()),
                    Attribute::Exponent2(key.exponent2.as_bytes().to_vec()),
                    Attribute::Coefficient(key.coefficient.as_bytes().to_vec()),
                ]);
                if key.version != 0 {
                    return Err(Error::Pki("multi-prime RSA keys are not supported".into()));
                }
            }
            SigAlg::EcdsaP256Sha256 => {
                let key = EcPrivateKey::from_der(info.private_key).map_err(|e| Error::Encoding(e.to_string()))?;
                let curve = parsed
                    .algorithm
                    .parameters
                    .as_ref()
                    .ok_or_else(|| Error::Pki("an EC key without its curve".into()))?
                    .to_der()
                    .map_err(|e| Error::Encoding(e.to_string()))?;
                template.extend([
                    Attribute::KeyType(KeyType::EC),
                    Attribute::EcParams(curve),
                    Attribute::Value(key.private_key.as_bytes().to_vec()),
                ]);
                if key.version != 1 {
                    return Err(Error::Pki("an EC private key of unknown version".into()));
                }
            }
        }
        self.with_rw_session(|session| {
            session.create_object(&template).map(|_| ()).map_err(|e| failed("key import", e))
        })
    }

    /// Destroys the key objects (private and public) of the key `cert_der` certifies: a key
    /// made by an instance that lost a race to store its certificate.
    pub fn destroy_key_of(&self, cert_der: &[u8]) -> Result<()> {
        let id = key_id_of_certificate(cert_der)?;
        self.with_rw_session(|session| {
            let objects = session.find_objects(&[Attribute::Id(id)]).map_err(|e| failed("search", e))?;
            for object in objects {
                session.destroy_object(object).map_err(|e| failed("destroy", e))?;
            }
            Ok(())
        })
    }

    /// Whether the token holds the private key of this certificate.
    pub fn holds_key_of(&self, cert_der: &[u8]) -> Result<bool> {
        let id = key_id_of_certificate(cert_der)?;
        self.with_session(|session| Ok(private_key(session, &id).is_ok()))
    }

    /// A signer with the token's key for `cert_der`, embedding `chain_der`.
    pub fn signer(self: &std::sync::Arc<Self>, cert_der: &[u8], chain_der: Vec<Vec<u8>>) -> Result<HsmSigner> {
        let algorithm = SigAlg::for_certificate(cert_der)?;
        let id = key_id_of_certificate(cert_der)?;
        let key = self.with_session(|session| private_key(session, &id))?;
        Ok(HsmSigner { hsm: self.clone(), key, algorithm, cert_der: cert_der.to_vec(), chain_der })
    }

    /// A deterministic secret only this token's key of `cert_der` can produce: its PKCS#1
    /// v1.5 signature (deterministic, unlike PSS or ECDSA) over a fixed context. Symmetric
    /// keys derived from it need the HSM, as the sealing key itself does.
    pub fn rsa_secret(self: &std::sync::Arc<Self>, cert_der: &[u8], context: &[u8]) -> Result<Vec<u8>> {
        let signer = self.signer(cert_der, Vec::new())?;
        if signer.algorithm != SigAlg::RsaPkcs1Sha256 {
            return Err(Error::Crypto("a secret is derived from RSA keys only".into()));
        }
        signer.sign(context)
    }
}

fn find_token(pkcs11: &Pkcs11, label: &str) -> Result<Slot> {
    let slots = pkcs11.get_slots_with_initialized_token().map_err(|e| failed("slots", e))?;
    for slot in slots {
        let info = pkcs11.get_token_info(slot).map_err(|e| failed("token", e))?;
        if info.label().trim() == label {
            return Ok(slot);
        }
    }
    Err(Error::Crypto(format!("PKCS#11: no token labelled {label:?}")))
}

fn private_key(session: &Session, id: &[u8]) -> Result<ObjectHandle> {
    let found = session
        .find_objects(&[Attribute::Class(ObjectClass::PRIVATE_KEY), Attribute::Id(id.to_vec())])
        .map_err(|e| failed("search", e))?;
    found.first().copied().ok_or_else(|| Error::Crypto(format!("PKCS#11: no private key with id {}", hex::encode(id))))
}

fn rsa_spki_of(session: &Session, public: ObjectHandle) -> Result<Vec<u8>> {
    let attributes = session
        .get_attributes(public, &[AttributeType::Modulus, AttributeType::PublicExponent])
        .map_err(|e| failed("public key", e))?;
    let (mut modulus, mut exponent) = (Vec::new(), Vec::new());
    for attribute in attributes {
        match attribute {
            Attribute::Modulus(value) => modulus = value,
            Attribute::PublicExponent(value) => exponent = value,
            _ => {}
        }
    }
    let encode_error = |e: der::Error| Error::Encoding(e.to_string());
    let key = RsaPublicKey {
        modulus: UintRef::new(&modulus).map_err(encode_error)?,
        public_exponent: UintRef::new(&exponent).map_err(encode_error)?,
    }
    .to_der()
    .map_err(encode_error)?;
    SubjectPublicKeyInfoOwned {
        algorithm: AlgorithmIdentifierOwned {
            oid: const_oid::db::rfc5912::RSA_ENCRYPTION,
            parameters: Some(der::Any::from(der::asn1::Null)),
        },
        subject_public_key: BitString::from_bytes(&key).map_err(encode_error)?,
    }
    .to_der()
    .map_err(encode_error)
}

/// A key in an [`Hsm`] with its certificate: signs without the key leaving the device.
pub struct HsmSigner {
    hsm: std::sync::Arc<Hsm>,
    key: ObjectHandle,
    algorithm: SigAlg,
    cert_der: Vec<u8>,
    chain_der: Vec<Vec<u8>>,
}

impl RawSigner for HsmSigner {
    fn algorithm(&self) -> SigAlg {
        self.algorithm
    }

    fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }

    fn chain_der(&self) -> &[Vec<u8>] {
        &self.chain_der
    }

    fn sign(&self, data: &[u8]) -> Result<Vec<u8>> {
        let digest = pki::sha256(data);
        self.hsm.with_session(|session| sign_digest(session, self.key, self.algorithm, &digest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecdsa_halves_become_der_integers() {
        let mut raw = vec![0u8; 64];
        raw[0] = 0x80; // r needs a leading zero
        raw[63] = 1; // s is 1
        let der = ecdsa_der(&raw).expect("der");
        assert_eq!(&der[..4], &[0x30, 0x26, 0x02, 0x21]);
        assert_eq!(&der[der.len() - 3..], &[0x02, 0x01, 0x01]);
        assert!(ecdsa_der(&[1, 2, 3]).is_err());
    }

    #[test]
    fn a_certificate_names_the_id_of_its_key() {
        let ca = pki::LocalCa::generate("Id CA").expect("ca");
        let issued = ca.issue_signer("Someone", pki::KeyAlgo::EcP256).expect("signer");
        let spki = pki::public_key_spki_from_pkcs8(&issued.key_pkcs8_der).expect("spki");
        assert_eq!(key_id_of_certificate(&issued.cert_der).expect("id"), key_id(&spki));
        assert_eq!(key_id(&spki).len(), 20);
    }
}
