//! PKCS#11 tokens: listing them and their signing certificates (no PIN needed), and signing
//! SHA-256 digests with a token key after one login (a PIN entered once signs a whole batch).
//! The signing step itself is [`signet_sigcrypto::pkcs11::sign_digest`], shared with the
//! server's HSM keys.

use std::path::Path;

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::object::{Attribute, AttributeType, CertificateType, ObjectClass};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::AuthPin;
use signet_sigcrypto::signer::SigAlg;
use signet_sigcrypto::{pkcs11, pki};

use crate::{BridgeError, PinTries};

/// Most digests one login signs (a bulk signature of a day's documents).
pub const MAX_BATCH: usize = 1000;

/// An inserted token.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TokenInfo {
    pub label: String,
    pub serial: String,
    pub manufacturer: String,
    pub model: String,
}

/// A certificate on a token that can sign now, with the id that names its key.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TokenCertificate {
    /// CKA_ID, hex: the certificate's key has the same id.
    pub key_id: String,
    pub label: String,
    pub subject: Option<String>,
    #[serde(skip)]
    pub der: Vec<u8>,
}

/// A loaded PKCS#11 module.
pub struct Tokens {
    pkcs11: Pkcs11,
}

impl Tokens {
    /// Loads and initialises the module at `module` (a shared library).
    pub fn open(module: &Path) -> Result<Tokens, BridgeError> {
        let pkcs11 = Pkcs11::new(module).map_err(|e| BridgeError::Module(e.to_string()))?;
        pkcs11
            .initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK))
            .map_err(|e| BridgeError::Module(e.to_string()))?;
        Ok(Tokens { pkcs11 })
    }

    /// The inserted tokens.
    pub fn list(&self) -> Result<Vec<TokenInfo>, BridgeError> {
        let mut out = Vec::new();
        for slot in self.pkcs11.get_slots_with_initialized_token()? {
            let info = self.pkcs11.get_token_info(slot)?;
            out.push(TokenInfo {
                label: info.label().trim().to_string(),
                serial: info.serial_number().trim().to_string(),
                manufacturer: info.manufacturer_id().trim().to_string(),
                model: info.model().trim().to_string(),
            });
        }
        Ok(out)
    }

    fn slot_of(&self, serial: &str) -> Result<Slot, BridgeError> {
        for slot in self.pkcs11.get_slots_with_initialized_token()? {
            if self.pkcs11.get_token_info(slot)?.serial_number().trim() == serial {
                return Ok(slot);
            }
        }
        Err(BridgeError::NoToken(serial.to_string()))
    }

    /// The token's certificates that can sign now (no PIN: certificates are public objects).
    pub fn certificates(&self, serial: &str, now_unix: u64) -> Result<Vec<TokenCertificate>, BridgeError> {
        let session = self.pkcs11.open_ro_session(self.slot_of(serial)?)?;
        let template = [Attribute::Class(ObjectClass::CERTIFICATE), Attribute::CertificateType(CertificateType::X_509)];
        let mut out = Vec::new();
        for handle in session.find_objects(&template)? {
            let attributes =
                session.get_attributes(handle, &[AttributeType::Value, AttributeType::Id, AttributeType::Label])?;
            let (mut der, mut id, mut label) = (Vec::new(), Vec::new(), String::new());
            for attribute in attributes {
                match attribute {
                    Attribute::Value(value) => der = value,
                    Attribute::Id(value) => id = value,
                    Attribute::Label(value) => label = String::from_utf8_lossy(&value).to_string(),
                    _ => {}
                }
            }
            if !der.is_empty() && pki::is_signing_certificate(&der, now_unix) {
                let subject = pki::cert_common_name(&der);
                out.push(TokenCertificate { key_id: hex::encode(&id), label, subject, der });
            }
        }
        Ok(out)
    }

    /// Signs each SHA-256 digest with the key `key_id` (hex CKA_ID) after one login with
    /// `pin`; the signatures come back in order (PKCS#1 v1.5, or DER ECDSA). `certificate`
    /// tells the key's algorithm.
    pub fn sign_digests(
        &self,
        serial: &str,
        key_id: &str,
        certificate: &[u8],
        pin: &str,
        digests: &[[u8; 32]],
    ) -> Result<Vec<Vec<u8>>, BridgeError> {
        if digests.is_empty() || digests.len() > MAX_BATCH {
            return Err(BridgeError::Token(format!("1 to {MAX_BATCH} digests per signature")));
        }
        let algorithm = SigAlg::for_certificate(certificate).map_err(|_| BridgeError::CertificateNotUsable)?;
        let id = hex::decode(key_id).map_err(|_| BridgeError::NoKey)?;
        let slot = self.slot_of(serial)?;
        let session = self.pkcs11.open_ro_session(slot)?;
        if let Err(error) = session.login(UserType::User, Some(&AuthPin::new(pin.into()))) {
            return Err(self.pin_refusal(slot, error.into()));
        }
        let signed = sign_with_login(&session, &id, algorithm, digests);
        // A token left logged in would sign for whoever asks next.
        let _ = session.logout();
        signed
    }

    /// A wrong PIN as the token's flags tell it: many tokens answer the wrong PIN that locks
    /// them with CKR_PIN_INCORRECT, not CKR_PIN_LOCKED, and say so only in their flags.
    fn pin_refusal(&self, slot: Slot, error: BridgeError) -> BridgeError {
        let BridgeError::WrongPin(_) = error else { return error };
        match self.pkcs11.get_token_info(slot) {
            Ok(info) if info.user_pin_locked() => BridgeError::Locked,
            Ok(info) if info.user_pin_final_try() => BridgeError::WrongPin(PinTries::Final),
            Ok(info) if info.user_pin_count_low() => BridgeError::WrongPin(PinTries::Low),
            _ => error,
        }
    }
}

fn sign_with_login(
    session: &Session,
    id: &[u8],
    algorithm: SigAlg,
    digests: &[[u8; 32]],
) -> Result<Vec<Vec<u8>>, BridgeError> {
    let keys = session.find_objects(&[Attribute::Class(ObjectClass::PRIVATE_KEY), Attribute::Id(id.to_vec())])?;
    let key = *keys.first().ok_or(BridgeError::NoKey)?;
    digests
        .iter()
        .map(|digest| {
            pkcs11::sign_digest(session, key, algorithm, digest).map_err(|e| BridgeError::Token(e.to_string()))
        })
        .collect()
}
