//! The ASP's side: what Signet checks in an ESP's answer before it embeds anything.
//!
//! Order matters: the ESP's signature first (nothing unauthenticated is read further), then
//! the transaction and the response's age, then the status, then each signature against the
//! digest Signet sent and the signer's certificate against the eSign CAs Signet trusts, at
//! the time of signing (eSign certificates live 30 minutes).

use signet_sigcrypto::cms;
use signet_sigcrypto::verify::{TrustStore, validate_chain};
use time::{Duration, OffsetDateTime};

use crate::EsignError;
use crate::model::{EsignResponse, ResponseStatus};
use crate::xml::verify_document_with;

/// Codes of an ASP's refusals (the ESP's own codes pass through in [`Outcome::Refused`]).
pub mod codes {
    /// Not a readable `EsignResp`.
    pub const MALFORMED: &str = "esign_malformed";
    /// Not signed by the configured ESP certificate, or altered after signing.
    pub const FORGED: &str = "esign_forged";
    /// For another transaction than the one it came back for.
    pub const OTHER_TRANSACTION: &str = "esign_other_transaction";
    /// Older than the transaction allows, or dated before the request.
    pub const LATE: &str = "esign_late";
    /// A signature missing, in error, or not over the digest that was sent.
    pub const DOCUMENT: &str = "esign_document";
    /// The signer's certificate does not chain to a trusted eSign CA at signing time.
    pub const CERTIFICATE: &str = "esign_certificate";
    /// Received before (recorded by the caller, which keeps the answers).
    pub const REPLAYED: &str = "esign_replayed";

    /// Every code with what it means for the integrator (English, the gateway's language).
    pub const ALL: &[(&str, &str)] = &[
        (MALFORMED, "the answer is not a readable eSign response"),
        (FORGED, "the answer is not signed by the configured ESP"),
        (OTHER_TRANSACTION, "the answer is for another transaction"),
        (LATE, "the answer came after the transaction expired or is dated outside it"),
        (DOCUMENT, "the answer's signatures are not over the document sent"),
        (CERTIFICATE, "the signer's certificate is not trusted"),
        (REPLAYED, "the answer was received before"),
    ];

    /// What `code` means, for the integrator; `None` for a code not listed.
    pub fn describe(code: &str) -> Option<&'static str> {
        ALL.iter().find(|(known, _)| *known == code).map(|(_, meaning)| *meaning)
    }
}

/// What the ASP trusts: the ESP's response-signing certificate and the eSign CA certificates
/// (roots and intermediates) that issue signer certificates.
#[derive(Debug, Clone)]
pub struct EspTrust {
    pub esp_certificate: Vec<u8>,
    pub esign_cas: Vec<Vec<u8>>,
    /// The ESP signs its answers with SHA-1 (C-DAC: RSA-SHA1 over a SHA-1 digest) and this
    /// installation accepts that for the ESP's answer signature, and for nothing else.
    pub allow_sha1: bool,
}

/// The ESP's answer signature alone: an enveloped XML-DSig over the whole answer, made with the
/// pinned ESP certificate's key, in any style real ESPs sign in (inclusive or exclusive C14N
/// 1.0 with or without comments; RSA-SHA256, ECDSA-SHA256, and RSA-SHA1 with SHA-1 digests
/// when [`EspTrust::allow_sha1`]; with or without KeyInfo, which when present must name the
/// pinned certificate). [`codes::FORGED`] otherwise.
pub fn verify_answer(xml: &[u8], trust: &EspTrust) -> Result<(), EsignError> {
    verify_document_with(xml, &trust.esp_certificate, codes::FORGED, trust.allow_sha1)
}

/// What the ASP sent, to hold the answer against.
#[derive(Debug, Clone)]
pub struct Expected<'a> {
    pub txn: &'a str,
    /// The digests sent, in `InputHash` id order (id 1 first).
    pub digests: &'a [[u8; 32]],
    pub sent_at: OffsetDateTime,
    /// How long after `sent_at` an answer is still taken.
    pub max_age: Duration,
    pub now: OffsetDateTime,
    /// The request asked for raw RSA signatures (`rawrsa`) rather than a CMS per hash.
    pub raw: bool,
}

/// A checked answer.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// One detached CMS (or, for `rawrsa`, one raw RSA signature) per digest, in order, all by
    /// one signer.
    Signed(Signed),
    /// The ESP reports that it did not sign (the signer cancelled, authentication failed…).
    Refused { code: String, message: String },
}

#[derive(Debug, Clone)]
pub struct Signed {
    pub signatures: Vec<Vec<u8>>,
    pub signer_certificate: Vec<u8>,
    pub signer_name: Option<String>,
    /// The ESP's reference for the transaction.
    pub res_code: String,
}

/// Clock difference between ESP and ASP tolerated on `ts`.
const CLOCK_SKEW: Duration = Duration::minutes(5);

/// Checks an `EsignResp` as posted back by the browser.
pub fn check_response(xml: &[u8], trust: &EspTrust, expected: &Expected<'_>) -> Result<Outcome, EsignError> {
    verify_answer(xml, trust)?;
    let response = EsignResponse::parse(xml).map_err(|e| EsignError::new(codes::MALFORMED, e.message))?;
    if response.txn != expected.txn {
        return Err(EsignError::new(
            codes::OTHER_TRANSACTION,
            format!("the answer is for transaction {}", response.txn),
        ));
    }
    if expected.now > expected.sent_at + expected.max_age {
        return Err(EsignError::new(codes::LATE, "the answer came after the transaction expired"));
    }
    if response.ts < expected.sent_at - CLOCK_SKEW || response.ts > expected.now + CLOCK_SKEW {
        return Err(EsignError::new(codes::LATE, "the answer is dated outside the transaction"));
    }
    match response.status {
        ResponseStatus::Success => {}
        ResponseStatus::Failure => {
            return Ok(Outcome::Refused {
                code: response.err_code.unwrap_or_else(|| "NA".into()),
                message: response.err_msg.unwrap_or_default(),
            });
        }
        ResponseStatus::Pending => {
            return Err(EsignError::new(codes::MALFORMED, "the ESP answered 'pending' where a result was due"));
        }
    }
    if expected.raw {
        return check_raw_signatures(&response, trust, expected).map(Outcome::Signed);
    }
    check_signatures(&response, trust, expected).map(Outcome::Signed)
}

/// `rawrsa`: each signature is PKCS#1 v1.5 over the digest sent, with the key of the
/// `UserX509Certificate`, which must chain to a trusted eSign CA at signing time.
fn check_raw_signatures(
    response: &EsignResponse,
    trust: &EspTrust,
    expected: &Expected<'_>,
) -> Result<Signed, EsignError> {
    use aws_lc_rs::signature::{RSA_PKCS1_2048_8192_SHA256, UnparsedPublicKey};
    let refuse = |m: String| EsignError::new(codes::DOCUMENT, m);
    let certificate = response
        .user_certificate
        .clone()
        .ok_or_else(|| refuse("a raw-signature answer needs the UserX509Certificate".into()))?;
    let parsed = signet_sigcrypto::pki::parse_cert(&certificate)
        .map_err(|e| EsignError::new(codes::CERTIFICATE, format!("UserX509Certificate: {e}")))?;
    let key = parsed.tbs_certificate.subject_public_key_info.subject_public_key.as_bytes().unwrap_or_default().to_vec();
    if response.signatures.len() != expected.digests.len() {
        return Err(refuse(format!(
            "{} signatures for {} documents",
            response.signatures.len(),
            expected.digests.len()
        )));
    }
    let mut signatures = Vec::with_capacity(expected.digests.len());
    for (index, digest) in expected.digests.iter().enumerate() {
        let id = index as u32 + 1;
        let doc = response
            .signatures
            .iter()
            .find(|s| s.id == id)
            .ok_or_else(|| refuse(format!("no signature for document {id}")))?;
        if let Some(error) = &doc.error {
            return Err(refuse(format!("the ESP reports an error for document {id}: {error}")));
        }
        let digest = aws_lc_rs::digest::Digest::import_less_safe(digest, &aws_lc_rs::digest::SHA256)
            .map_err(|_| refuse("bad digest".into()))?;
        UnparsedPublicKey::new(&RSA_PKCS1_2048_8192_SHA256, &key)
            .verify_digest(&digest, &doc.cms_der)
            .map_err(|_| refuse(format!("the signature of document {id} is not over the digest sent")))?;
        signatures.push(doc.cms_der.clone());
    }
    check_signer_certificate(&certificate, &[], trust, response.ts)?;
    Ok(Signed {
        signatures,
        signer_name: signet_sigcrypto::pki::cert_common_name(&certificate),
        signer_certificate: certificate,
        res_code: response.res_code.clone(),
    })
}

fn check_signatures(response: &EsignResponse, trust: &EspTrust, expected: &Expected<'_>) -> Result<Signed, EsignError> {
    let refuse = |m: String| EsignError::new(codes::DOCUMENT, m);
    if response.signatures.len() != expected.digests.len() {
        return Err(refuse(format!(
            "{} signatures for {} documents",
            response.signatures.len(),
            expected.digests.len()
        )));
    }
    let mut signatures = Vec::with_capacity(expected.digests.len());
    let mut signer: Option<cms::SignerSummary> = None;
    for (index, digest) in expected.digests.iter().enumerate() {
        let id = index as u32 + 1;
        let doc = response
            .signatures
            .iter()
            .find(|s| s.id == id)
            .ok_or_else(|| refuse(format!("no signature for document {id}")))?;
        if let Some(error) = &doc.error {
            return Err(refuse(format!("the ESP reports an error for document {id}: {error}")));
        }
        let summary =
            cms::check_external_cms(&doc.cms_der, digest).map_err(|e| refuse(format!("document {id}: {e}")))?;
        if let Some(first) = &signer
            && first.cert_der != summary.cert_der
        {
            return Err(refuse("the documents are signed by different certificates".into()));
        }
        signer.get_or_insert(summary);
        signatures.push(doc.cms_der.clone());
    }
    let signer = signer.ok_or_else(|| refuse("no signature".into()))?;
    if let Some(user) = &response.user_certificate
        && *user != signer.cert_der
    {
        return Err(refuse("UserX509Certificate is not the certificate that signed".into()));
    }
    check_signer_certificate(&signer.cert_der, &signer.other_certs_der, trust, response.ts)?;
    Ok(Signed {
        signatures,
        signer_certificate: signer.cert_der.clone(),
        signer_name: signer.common_name.clone(),
        res_code: response.res_code.clone(),
    })
}

/// The signer's certificate chains (through the certificates the answer carried and the
/// configured ones) to a trusted eSign CA, valid at the time of signing.
fn check_signer_certificate(
    certificate: &[u8],
    carried: &[Vec<u8>],
    trust: &EspTrust,
    signed_at: OffsetDateTime,
) -> Result<(), EsignError> {
    let refuse = |m: String| EsignError::new(codes::CERTIFICATE, m);
    let anchors = TrustStore::from_der_certs(&trust.esign_cas).map_err(|e| refuse(e.to_string()))?;
    let mut pool = carried.to_vec();
    pool.extend(trust.esign_cas.iter().cloned());
    let at = u64::try_from(signed_at.unix_timestamp()).unwrap_or(0);
    validate_chain(certificate, &pool, &anchors, at)
        .map(|_| ())
        .map_err(|e| refuse(format!("the signer's certificate is not trusted: {e}")))
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as B64;
    use signet_sigcrypto::pki;
    use signet_sigcrypto::signer::{LocalKeySigner, RawSigner};

    use super::*;
    use crate::esp;

    fn signer(name: &str) -> LocalKeySigner {
        let issued = pki::self_signed_rsa(name, 2048).expect("key");
        LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![]).expect("signer")
    }

    fn cancelled(txn: &str) -> EsignResponse {
        EsignResponse {
            status: ResponseStatus::Failure,
            ts: OffsetDateTime::now_utc(),
            txn: txn.into(),
            res_code: "esp-ref-1".into(),
            err_code: Some(esp::codes::CANCELLED.into()),
            err_msg: Some("the signer cancelled".into()),
            user_certificate: None,
            signatures: Vec::new(),
        }
    }

    /// `signed` with an `X509Certificate` holding `certificate` put inside the signature, where
    /// the enveloped transform leaves it outside the signed content.
    fn with_decoy(signed: &[u8], certificate: &[u8]) -> Vec<u8> {
        let text = String::from_utf8(signed.to_vec()).expect("utf8");
        let decoy =
            format!("<ds:Object><ds:X509Certificate>{}</ds:X509Certificate></ds:Object>", B64.encode(certificate));
        text.replacen("</ds:Signature>", &format!("{decoy}</ds:Signature>"), 1).into_bytes()
    }

    #[test]
    fn answers_signed_with_another_key_are_forged_whatever_certificates_they_name() {
        let (esp, attacker) = (signer("Example ESP"), signer("Attacker"));
        let trust =
            EspTrust { esp_certificate: esp.certificate_der().to_vec(), esign_cas: Vec::new(), allow_sha1: true };
        let now = OffsetDateTime::now_utc();
        let digests = [pki::sha256(b"the agreement")];
        let expected = Expected {
            txn: "TXN-1",
            digests: &digests,
            sent_at: now - Duration::seconds(30),
            max_age: Duration::minutes(30),
            now,
            raw: false,
        };
        let genuine = esp::signed_response(&cancelled("TXN-1"), &esp).expect("sign");
        assert!(matches!(check_response(&genuine, &trust, &expected), Ok(Outcome::Refused { .. })));

        // Signed by the attacker, its certificate in KeyInfo, a decoy naming the pinned ESP
        // certificate outside the signed content: a "cancelled" and a "signed" answer.
        let mut signed = cancelled("TXN-1");
        (signed.status, signed.err_code, signed.err_msg) = (ResponseStatus::Success, None, None);
        for answer in [cancelled("TXN-1"), signed] {
            let forged = esp::signed_response(&answer, &attacker).expect("sign");
            let forged = with_decoy(&forged, esp.certificate_der());
            let refused = check_response(&forged, &trust, &expected).expect_err("forged");
            assert_eq!(refused.code, codes::FORGED, "{}", refused.message);
        }

        // KeyInfo itself naming the pinned certificate over the attacker's signature.
        let forged = String::from_utf8(esp::signed_response(&cancelled("TXN-1"), &attacker).expect("sign"))
            .expect("utf8")
            .replace(&B64.encode(attacker.certificate_der()), &B64.encode(esp.certificate_der()));
        let refused = check_response(forged.as_bytes(), &trust, &expected).expect_err("forged");
        assert_eq!(refused.code, codes::FORGED, "{}", refused.message);
    }
}
