//! Writing and reading the request and response documents, and their enveloped signatures.
//!
//! Reading goes through sigcrypto's XML parser (no DTDs, bounded depth and size); attribute
//! names are matched without regard to case, as ESPs and ASPs differ (`AuthMode`,
//! `authMode`). Writing escapes every value.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use signet_sigcrypto::signer::RawSigner;
use signet_sigcrypto::xml::{self, Element};
use signet_sigcrypto::xmldsig::{self, XmlSignOptions};

use crate::EsignError;
use crate::model::{
    AuthMode, DocSignature, EsignRequest, EsignResponse, InputHash, MAX_HASHES, ResponseStatus, format_ts, parse_ts,
};

/// Largest request or response read: five CMS signatures with their chains fit many times.
pub const MAX_DOCUMENT_BYTES: usize = 1 << 20;
/// Longest `docInfo` sent.
const MAX_DOC_INFO_CHARS: usize = 50;

fn malformed(message: impl Into<String>) -> EsignError {
    EsignError::new("ESP-901", message)
}

impl EsignRequest {
    /// The request without its signature (sign it with [`sign_document`]).
    pub fn to_xml(&self) -> String {
        let mut out = format!(
            "<Esign ver=\"{}\" sc=\"Y\" ts=\"{}\" txn=\"{}\" ekycId=\"{}\" ekycIdType=\"{}\" aspId=\"{}\" \
             AuthMode=\"{}\" responseSigType=\"{}\" responseUrl=\"{}\"><Docs>",
            xml::escape(&self.ver),
            format_ts(self.ts),
            xml::escape(&self.txn),
            xml::escape(&self.ekyc_id),
            xml::escape(&self.ekyc_id_type),
            xml::escape(&self.asp_id),
            self.auth_mode.code(),
            xml::escape(&self.response_sig_type),
            xml::escape(&self.response_url),
        );
        for h in &self.hashes {
            let info: String = h.doc_info.chars().take(MAX_DOC_INFO_CHARS).collect();
            out.push_str(&format!(
                "<InputHash id=\"{}\" hashAlgorithm=\"SHA256\" docInfo=\"{}\">{}</InputHash>",
                h.id,
                xml::escape(&info),
                hex::encode(h.sha256)
            ));
        }
        out.push_str("</Docs></Esign>");
        out
    }

    /// Reads a request (its signature is checked apart, by [`verify_document`]). ESP-901 for
    /// a document that is not an `Esign` request or misses an attribute, ESP-907 for hashes
    /// that are not 1-5 SHA-256 values in hex with distinct ids.
    pub fn parse(bytes: &[u8]) -> Result<Self, EsignError> {
        let root = parse_root(bytes, "Esign")?;
        let ts = parse_ts(&required(&root, "ts")?)?;
        let auth_mode = required(&root, "AuthMode")?;
        let auth_mode =
            AuthMode::from_code(&auth_mode).ok_or_else(|| malformed(format!("AuthMode {auth_mode:?} is unknown")))?;
        let docs = child(&root, "Docs").ok_or_else(|| malformed("the request has no Docs"))?;
        let mut hashes = Vec::new();
        for input in docs.child_elements().filter(|e| e.local_name() == "InputHash") {
            if hashes.len() == MAX_HASHES {
                return Err(EsignError::new("ESP-907", format!("more than {MAX_HASHES} InputHash elements")));
            }
            hashes.push(read_input_hash(input)?);
        }
        if hashes.is_empty() {
            return Err(EsignError::new("ESP-907", "the request has no InputHash"));
        }
        let mut ids: Vec<u32> = hashes.iter().map(|h| h.id).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != hashes.len() {
            return Err(EsignError::new("ESP-907", "two InputHash elements share an id"));
        }
        Ok(EsignRequest {
            ver: required(&root, "ver")?,
            ts,
            txn: required(&root, "txn")?,
            asp_id: required(&root, "aspId")?,
            auth_mode,
            response_sig_type: required(&root, "responseSigType")?,
            response_url: required(&root, "responseUrl")?,
            ekyc_id: attr(&root, "ekycId").unwrap_or_default(),
            ekyc_id_type: attr(&root, "ekycIdType").unwrap_or_default(),
            hashes,
        })
    }
}

fn read_input_hash(input: &Element) -> Result<InputHash, EsignError> {
    let id = required(input, "id")?;
    let id = id.trim().parse::<u32>().map_err(|_| EsignError::new("ESP-907", format!("InputHash id {id:?}")))?;
    let algorithm = attr(input, "hashAlgorithm").unwrap_or_else(|| "SHA256".into());
    if !algorithm.eq_ignore_ascii_case("SHA256") {
        return Err(EsignError::new("ESP-907", format!("hashAlgorithm {algorithm:?}; only SHA256 is signed")));
    }
    let text = input.text();
    let hex_text = text.trim();
    let sha256: [u8; 32] = hex::decode(hex_text)
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| EsignError::new("ESP-907", format!("InputHash {id} is not 64 hexadecimal digits")))?;
    Ok(InputHash { id, sha256, doc_info: attr(input, "docInfo").unwrap_or_default() })
}

impl EsignResponse {
    /// The response without its signature (the ESP signs it with [`sign_document`]).
    pub fn to_xml(&self) -> String {
        let or_na = |v: &Option<String>| v.as_deref().map(xml::escape).unwrap_or_else(|| "NA".into());
        let mut out = format!(
            "<EsignResp errCode=\"{}\" errMsg=\"{}\" resCode=\"{}\" status=\"{}\" ts=\"{}\" txn=\"{}\">",
            or_na(&self.err_code),
            or_na(&self.err_msg),
            xml::escape(&self.res_code),
            self.status.code(),
            format_ts(self.ts),
            xml::escape(&self.txn),
        );
        if let Some(cert) = &self.user_certificate {
            out.push_str(&format!("<UserX509Certificate>{}</UserX509Certificate>", B64.encode(cert)));
        }
        out.push_str("<Signatures>");
        for s in &self.signatures {
            out.push_str(&format!(
                "<DocSignature error=\"{}\" id=\"{}\" sigHashAlgorithm=\"SHA256\">{}</DocSignature>",
                or_na(&s.error),
                s.id,
                B64.encode(&s.cms_der)
            ));
        }
        out.push_str("</Signatures></EsignResp>");
        out
    }

    /// Reads a response (its signature is checked apart, by [`verify_document`]).
    pub fn parse(bytes: &[u8]) -> Result<Self, EsignError> {
        let root = parse_root(bytes, "EsignResp")?;
        let status = required(&root, "status")?;
        let status = ResponseStatus::from_code(&status).ok_or_else(|| malformed(format!("status {status:?}")))?;
        let not_na = |v: Option<String>| v.filter(|v| !v.trim().is_empty() && !v.trim().eq_ignore_ascii_case("NA"));
        let user_certificate = match child(&root, "UserX509Certificate") {
            Some(cert) => Some(decode_b64(&cert.text()).ok_or_else(|| malformed("UserX509Certificate is not base64"))?),
            None => None,
        };
        let mut signatures = Vec::new();
        if let Some(list) = child(&root, "Signatures") {
            for s in list.child_elements().filter(|e| e.local_name() == "DocSignature") {
                if signatures.len() == MAX_HASHES {
                    return Err(malformed(format!("more than {MAX_HASHES} DocSignature elements")));
                }
                let id = required(s, "id")?;
                let id = id.trim().parse::<u32>().map_err(|_| malformed(format!("DocSignature id {id:?}")))?;
                let cms_der =
                    decode_b64(&s.text()).ok_or_else(|| malformed(format!("DocSignature {id} is not base64")))?;
                signatures.push(DocSignature { id, cms_der, error: not_na(attr(s, "error")) });
            }
        }
        Ok(EsignResponse {
            status,
            ts: parse_ts(&required(&root, "ts")?)?,
            txn: required(&root, "txn")?,
            res_code: attr(&root, "resCode").unwrap_or_default(),
            // 3.x writes errorCode/errorMessage.
            err_code: not_na(attr(&root, "errCode").or_else(|| attr(&root, "errorCode"))),
            err_msg: not_na(attr(&root, "errMsg").or_else(|| attr(&root, "errorMessage"))),
            user_certificate,
            signatures,
        })
    }
}

fn decode_b64(text: &str) -> Option<Vec<u8>> {
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    B64.decode(compact).ok()
}

fn parse_root(bytes: &[u8], name: &str) -> Result<Element, EsignError> {
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(malformed(format!("the document is larger than {} KB", MAX_DOCUMENT_BYTES / 1024)));
    }
    let text = xml::as_text(bytes).map_err(|e| malformed(e.to_string()))?;
    let doc = xml::parse(text).map_err(|e| malformed(e.to_string()))?;
    if doc.root.local_name() != name {
        return Err(malformed(format!("the document is <{}>, not <{name}>", doc.root.local_name())));
    }
    Ok(doc.root)
}

fn attr(e: &Element, name: &str) -> Option<String> {
    e.attrs.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone())
}

fn required(e: &Element, name: &str) -> Result<String, EsignError> {
    attr(e, name)
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| malformed(format!("<{}> has no {name}", e.local_name())))
}

fn child<'a>(e: &'a Element, name: &str) -> Option<&'a Element> {
    e.child_elements().find(|c| c.local_name().eq_ignore_ascii_case(name))
}

/// Signs a request or response with an enveloped XML-DSig (exclusive C14N, RSA-SHA256 or
/// ECDSA-SHA256, the signer's certificate in KeyInfo).
pub fn sign_document(xml: &[u8], signer: &dyn RawSigner) -> Result<Vec<u8>, EsignError> {
    let options = XmlSignOptions { xades: false, signing_time: None, include_chain: false };
    xmldsig::sign_enveloped(xml, signer, &options).map_err(|e| EsignError::new("ESP-904", e.to_string()))
}

/// Checks a document's one enveloped signature: intact, covering the whole document, and made
/// with the key of `expected_cert_der` (the certificate registered for the other party:
/// pinned, not merely chained). The signature is verified with the pinned key alone, never
/// one the document carries (a decoy `X509Certificate` anywhere, or a KeyInfo naming the
/// pinned certificate over another key's signature, verify nothing); a KeyInfo naming
/// another signer is refused too. SHA-1 is refused. `code` is the refusal's code.
pub fn verify_document(bytes: &[u8], expected_cert_der: &[u8], code: &'static str) -> Result<(), EsignError> {
    verify_document_with(bytes, expected_cert_der, code, false)
}

/// [`verify_document`], taking SHA-1 (RSA-SHA1, SHA-1 digests) when `allow_sha1`: for the
/// ESP's answer only, when its configuration says so. A KeyInfo, when the document has one,
/// must name `expected_cert_der` (its chain may stand beside it).
pub fn verify_document_with(
    bytes: &[u8],
    expected_cert_der: &[u8],
    code: &'static str,
    allow_sha1: bool,
) -> Result<(), EsignError> {
    let refuse = |m: String| EsignError::new(code, m);
    let policy = xmldsig::PinnedPolicy { allow_sha1 };
    let report = xmldsig::verify_enveloped_pinned_with(bytes, expected_cert_der, policy)
        .map_err(|e| refuse(format!("the XML signature could not be read: {e}")))?;
    let [signature] = report.signatures.as_slice() else {
        return Err(refuse(format!("{} signatures; one is expected", report.signatures.len())));
    };
    if !signature.valid || !signature.covers_document {
        return Err(refuse(format!(
            "the XML signature was not made with the registered certificate's key over this document: {}",
            signature.errors.join("; ")
        )));
    }
    Ok(())
}
