//! Enveloped XML-DSig (and XAdES-BES) signing and verification.
//!
//! Signing: Reference URI="" with the enveloped-signature and exclusive C14N transforms,
//! SignedInfo canonicalised with exclusive C14N, RSA-SHA256 (or ECDSA-SHA256), KeyInfo with
//! the X.509 certificate(s). With XAdES, a second Reference covers SignedProperties
//! (SigningTime, SigningCertificateV2).
//!
//! Every digest is computed over the *final document* as we emit it (pitfall X2): the
//! Signature element is spliced into the original text, the result re-parsed, and the
//! SignedProperties / SignedInfo canonicalised in that context.

use aws_lc_rs::signature::{self as awssig, UnparsedPublicKey};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use der::Encode;
use time::OffsetDateTime;

use crate::cms::IssuerSerial;
use crate::pki;
use crate::public_key::HashAlg;
use crate::signer::{RawSigner, SigAlg};
use crate::validation::{CertificateStatus, Facts, Indication, SubIndication, indicate};
use crate::verify::{
    TimestampReport, TrustStore, VerifyOptions, check_certificate, path_checked_at, timestamp_checked_at,
};
use crate::xml::{self, C14n, Document, Element, NsScope};
use crate::{Error, Result};

mod long_term;

pub use long_term::{LongTermMaterial, LongTermValues, add_long_term_values, long_term_material};

pub const DSIG_NS: &str = "http://www.w3.org/2000/09/xmldsig#";
pub const XADES_NS: &str = "http://uri.etsi.org/01903/v1.3.2#";
pub const EXC_C14N: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";
pub const EXC_C14N_COMMENTS: &str = "http://www.w3.org/2001/10/xml-exc-c14n#WithComments";
/// Inclusive C14N 1.0, without and with comments (what a reference without a canonicalization
/// transform gets by default, XML-DSig §4.3.3.2).
pub const C14N: &str = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
pub const C14N_COMMENTS: &str = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments";
pub const ENVELOPED: &str = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
pub const SHA256_URI: &str = "http://www.w3.org/2001/04/xmlenc#sha256";
const SHA512_URI: &str = "http://www.w3.org/2001/04/xmlenc#sha512";
const SHA384_URI: &str = "http://www.w3.org/2001/04/xmldsig-more#sha384";
const SHA1_URI: &str = "http://www.w3.org/2000/09/xmldsig#sha1";
/// RSA with SHA-1: only ever accepted from a pinned party whose policy allows SHA-1.
const RSA_SHA1: &str = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
const RSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const RSA_SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384";
const RSA_SHA512: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512";
const ECDSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
const SIGNED_PROPS_TYPE: &str = "http://uri.etsi.org/01903#SignedProperties";

/// Options for XML signing.
#[derive(Debug, Clone)]
pub struct XmlSignOptions {
    /// Add XAdES-BES QualifyingProperties (SigningTime, SigningCertificateV2).
    pub xades: bool,
    /// XAdES SigningTime; defaults to now.
    pub signing_time: Option<OffsetDateTime>,
    /// Put the issuer chain into KeyInfo/X509Data as well.
    pub include_chain: bool,
}

impl Default for XmlSignOptions {
    fn default() -> Self {
        XmlSignOptions { xades: false, signing_time: None, include_chain: true }
    }
}

impl XmlSignOptions {
    /// XAdES-BES with SigningTime = now.
    pub fn xades() -> Self {
        XmlSignOptions { xades: true, ..Default::default() }
    }
}

/// The pieces of a Signature element that change between the signing passes.
struct SigParts<'a> {
    id: String,
    doc_digest_b64: String,
    props_digest_b64: Option<String>,
    signature_b64: String,
    alg: SigAlg,
    certs: Vec<&'a [u8]>,
    props: Option<String>,
}

/// Sign an XML document with an enveloped signature appended to the document element.
pub fn sign_enveloped(xml: &[u8], signer: &dyn RawSigner, opts: &XmlSignOptions) -> Result<Vec<u8>> {
    sign_enveloped_with_id(xml, signer, opts, &random_id()?)
}

/// Phase 1 of a deferred enveloped RSA-SHA256 signature, for a remote signer that signs a
/// hash and whose certificate comes with the signature (Aadhaar eSign's raw-signature
/// responses): the signature's Id and the SHA-256 of the canonical SignedInfo to sign. Without
/// XAdES properties the SignedInfo does not depend on the certificate (KeyInfo is outside it),
/// so phase 2 rebuilds the same bytes once the certificate is known; with them (a certificate
/// known beforehand), phase 2 rebuilds them from the same certificate and signing time.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PreparedXmlSignature {
    pub id: String,
    pub signed_info_sha256: [u8; 32],
    /// For a XAdES-BES signature (the certificate was known when preparing): the signed
    /// SigningTime (UNIX seconds), which phase 2 must write again.
    #[serde(default)]
    pub xades_signing_time: Option<i64>,
}

pub fn prepare_enveloped_rsa(xml: &[u8]) -> Result<PreparedXmlSignature> {
    prepare_rsa(xml, &[], None)
}

/// [`prepare_enveloped_rsa`] for a signer whose certificate is known before it signs (a
/// hardware token): XAdES-BES, with SigningTime (now) and SigningCertificateV2 signed, so that
/// the signature can become a true XAdES B-LT later.
pub fn prepare_enveloped_rsa_xades(xml: &[u8], cert_der: &[u8]) -> Result<PreparedXmlSignature> {
    prepare_rsa(xml, cert_der, Some(OffsetDateTime::now_utc().unix_timestamp()))
}

fn prepare_rsa(xml: &[u8], cert_der: &[u8], xades_signing_time: Option<i64>) -> Result<PreparedXmlSignature> {
    let id = random_id()?;
    let capture = CapturingSigner { cert_der: cert_der.to_vec(), captured: std::sync::Mutex::new(None) };
    sign_enveloped_with_id(xml, &capture, &deferred_options(xades_signing_time, false)?, &id)?;
    let captured = capture.captured.lock().map_err(|_| Error::Crypto("lock".into()))?.take();
    let signed_info = captured.ok_or_else(|| Error::Xml("no SignedInfo was produced".into()))?;
    Ok(PreparedXmlSignature { id, signed_info_sha256: pki::sha256(&signed_info), xades_signing_time })
}

/// The options of both phases of a deferred signature (KeyInfo is outside SignedInfo, so the
/// chain may differ between them).
fn deferred_options(xades_signing_time: Option<i64>, include_chain: bool) -> Result<XmlSignOptions> {
    let signing_time = xades_signing_time
        .map(OffsetDateTime::from_unix_timestamp)
        .transpose()
        .map_err(|e| Error::Xml(format!("bad signing time: {e}")))?;
    Ok(XmlSignOptions { xades: signing_time.is_some(), signing_time, include_chain })
}

/// Phase 2: the signed document, with the remote `signature` (PKCS#1 v1.5 over the prepared
/// hash) and the signer's certificate and chain in KeyInfo. The signature must verify with
/// the certificate's key over exactly the prepared SignedInfo.
pub fn complete_enveloped_rsa(
    xml: &[u8],
    prepared: &PreparedXmlSignature,
    signature: &[u8],
    cert_der: &[u8],
    chain_der: &[Vec<u8>],
) -> Result<Vec<u8>> {
    if SigAlg::for_certificate(cert_der)? != SigAlg::RsaPkcs1Sha256 {
        return Err(Error::Crypto("a raw RSA signature needs an RSA certificate".into()));
    }
    let replay = ReplayingSigner {
        cert_der: cert_der.to_vec(),
        chain_der: chain_der.to_vec(),
        signature: signature.to_vec(),
        expected: prepared.signed_info_sha256,
    };
    let signed =
        sign_enveloped_with_id(xml, &replay, &deferred_options(prepared.xades_signing_time, true)?, &prepared.id)?;
    let key = pki::parse_cert(cert_der)?.tbs_certificate.subject_public_key_info.subject_public_key;
    let key = key.as_bytes().ok_or_else(|| Error::Crypto("bad public key".into()))?;
    let digest = aws_lc_rs::digest::Digest::import_less_safe(&prepared.signed_info_sha256, &aws_lc_rs::digest::SHA256)
        .map_err(|_| Error::Crypto("bad digest".into()))?;
    UnparsedPublicKey::new(&awssig::RSA_PKCS1_2048_8192_SHA256, key)
        .verify_digest(&digest, signature)
        .map_err(|_| Error::Crypto("the signature does not verify with the certificate over the document".into()))?;
    Ok(signed)
}

/// Records what it is asked to sign (phase 1 of a deferred signature).
struct CapturingSigner {
    /// Empty when the certificate is not known yet (no XAdES properties then).
    cert_der: Vec<u8>,
    captured: std::sync::Mutex<Option<Vec<u8>>>,
}

impl RawSigner for CapturingSigner {
    fn algorithm(&self) -> SigAlg {
        SigAlg::RsaPkcs1Sha256
    }
    fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }
    fn chain_der(&self) -> &[Vec<u8>] {
        &[]
    }
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>> {
        if let Ok(mut slot) = self.captured.lock() {
            *slot = Some(data.to_vec());
        }
        Ok(vec![0; 256])
    }
}

/// Returns a signature made elsewhere, for exactly the data it was made over.
struct ReplayingSigner {
    cert_der: Vec<u8>,
    chain_der: Vec<Vec<u8>>,
    signature: Vec<u8>,
    expected: [u8; 32],
}

impl RawSigner for ReplayingSigner {
    fn algorithm(&self) -> SigAlg {
        SigAlg::RsaPkcs1Sha256
    }
    fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }
    fn chain_der(&self) -> &[Vec<u8>] {
        &self.chain_der
    }
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>> {
        if pki::sha256(data) != self.expected {
            return Err(Error::Xml("the SignedInfo differs from the one prepared".into()));
        }
        Ok(self.signature.clone())
    }
}

fn sign_enveloped_with_id(xml: &[u8], signer: &dyn RawSigner, opts: &XmlSignOptions, id: &str) -> Result<Vec<u8>> {
    let bom = if xml.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let text = xml::as_text(xml)?;
    let doc = xml::parse(text)?;
    refuse_existing_signature(&doc)?;
    let doc_c14n = xml::c14n_document(&doc, plain())?;
    let mut certs = vec![signer.certificate_der()];
    if opts.include_chain {
        certs.extend(signer.chain_der().iter().map(Vec::as_slice));
    }
    let id = id.to_string();
    let props = if opts.xades {
        let t = opts.signing_time.unwrap_or_else(OffsetDateTime::now_utc);
        Some(signed_properties(&id, signer.certificate_der(), t)?)
    } else {
        None
    };
    let mut parts = SigParts {
        id: id.clone(),
        doc_digest_b64: B64.encode(pki::sha256(doc_c14n.as_bytes())),
        props_digest_b64: props.as_ref().map(|_| String::new()),
        signature_b64: String::new(),
        alg: signer.algorithm(),
        certs,
        props,
    };
    // Pass 1: SignedProperties digest in the final document context.
    if parts.props.is_some() {
        let spliced = splice(text, &doc.root, &signature_xml(&parts)?)?;
        let d = xml::parse(&spliced)?;
        let (el, scope) = find_by_id(&d, &format!("xades-{id}"))?;
        let c = xml::c14n_subtree(el, &scope, plain())?;
        parts.props_digest_b64 = Some(B64.encode(pki::sha256(c.as_bytes())));
    }
    // Pass 2: SignedInfo canonical form in context, then sign it.
    let spliced = splice(text, &doc.root, &signature_xml(&parts)?)?;
    let d = xml::parse(&spliced)?;
    let (si, scope) = find_signed_info(&d, &id)?;
    let si_c14n = xml::c14n_subtree(si, &scope, plain())?;
    let raw = signer.sign(si_c14n.as_bytes())?;
    parts.signature_b64 = B64.encode(xml_signature_value(parts.alg, &raw)?);
    let final_text = splice(text, &doc.root, &signature_xml(&parts)?)?;
    let mut out = Vec::with_capacity(final_text.len() + bom);
    out.extend_from_slice(&xml[..bom]);
    out.extend_from_slice(final_text.as_bytes());
    Ok(out)
}

/// A second enveloped signature over URI="" would change the bytes the first one digests
/// (its enveloped transform removes only itself), silently invalidating it. Refuse.
fn refuse_existing_signature(doc: &Document) -> Result<()> {
    let exists = all_elements(doc).iter().any(|(path, scope)| is_ds(path[path.len() - 1], scope, "Signature"));
    if exists {
        return Err(Error::Xml(
            "the document is already signed; adding an enveloped signature would invalidate the existing one".into(),
        ));
    }
    Ok(())
}

fn plain() -> C14n<'static> {
    C14n::exclusive(false)
}

/// A canonicalization algorithm URI as (inclusive, with comments); `None` for any other.
fn c14n_method(uri: &str) -> Option<(bool, bool)> {
    match uri {
        EXC_C14N => Some((false, false)),
        EXC_C14N_COMMENTS => Some((false, true)),
        C14N => Some((true, false)),
        C14N_COMMENTS => Some((true, true)),
        _ => None,
    }
}

fn random_id() -> Result<String> {
    let mut b = [0u8; 8];
    aws_lc_rs::rand::fill(&mut b).map_err(|_| Error::Crypto("random generator failed".into()))?;
    Ok(hex::encode(b))
}

/// Insert `sig` as the last child of the document element, leaving every other byte as is.
fn splice(text: &str, root: &Element, sig: &str) -> Result<String> {
    let at = root.end_tag_start;
    let (head, tail) = (
        text.get(..at).ok_or_else(|| Error::Xml("bad offset".into()))?,
        text.get(at..).ok_or_else(|| Error::Xml("bad offset".into()))?,
    );
    let mut out = String::with_capacity(text.len() + sig.len() + 64);
    out.push_str(head);
    if root.empty {
        // "<root/>" → "<root>SIG</root>"
        out.push('>');
        out.push_str(sig);
        out.push_str("</");
        out.push_str(&root.name);
        out.push('>');
        out.push_str(tail.get(2..).unwrap_or(""));
    } else {
        out.push_str(sig);
        out.push_str(tail);
    }
    Ok(out)
}

fn signature_xml(p: &SigParts<'_>) -> Result<String> {
    let mut s = String::with_capacity(4096);
    s.push_str(&format!(
        "<ds:Signature xmlns:ds=\"{DSIG_NS}\" Id=\"sig-{id}\"><ds:SignedInfo>\
<ds:CanonicalizationMethod Algorithm=\"{EXC_C14N}\"/>\
<ds:SignatureMethod Algorithm=\"{method}\"/>\
<ds:Reference URI=\"\"><ds:Transforms><ds:Transform Algorithm=\"{ENVELOPED}\"/>\
<ds:Transform Algorithm=\"{EXC_C14N}\"/></ds:Transforms>\
<ds:DigestMethod Algorithm=\"{SHA256_URI}\"/><ds:DigestValue>{d}</ds:DigestValue></ds:Reference>",
        id = p.id,
        method = p.alg.xmldsig_uri(),
        d = p.doc_digest_b64,
    ));
    if let Some(pd) = &p.props_digest_b64 {
        s.push_str(&format!(
            "<ds:Reference Type=\"{SIGNED_PROPS_TYPE}\" URI=\"#xades-{id}\"><ds:Transforms>\
<ds:Transform Algorithm=\"{EXC_C14N}\"/></ds:Transforms>\
<ds:DigestMethod Algorithm=\"{SHA256_URI}\"/><ds:DigestValue>{pd}</ds:DigestValue></ds:Reference>",
            id = p.id
        ));
    }
    s.push_str(&format!(
        "</ds:SignedInfo><ds:SignatureValue>{}</ds:SignatureValue><ds:KeyInfo><ds:X509Data>",
        p.signature_b64
    ));
    for c in &p.certs {
        s.push_str(&format!("<ds:X509Certificate>{}</ds:X509Certificate>", B64.encode(c)));
    }
    s.push_str("</ds:X509Data></ds:KeyInfo>");
    if let Some(props) = &p.props {
        s.push_str(&format!(
            "<ds:Object><xades:QualifyingProperties xmlns:xades=\"{XADES_NS}\" Target=\"#sig-{}\">{props}</xades:QualifyingProperties></ds:Object>",
            p.id
        ));
    }
    s.push_str("</ds:Signature>");
    Ok(s)
}

/// XAdES SignedProperties (EN 319 132-1): SigningTime and SigningCertificateV2 with the
/// certificate digest and the DER IssuerSerial (base64).
fn signed_properties(id: &str, cert_der: &[u8], t: OffsetDateTime) -> Result<String> {
    let cert = pki::parse_cert(cert_der)?;
    let issuer_serial = IssuerSerial {
        issuer: vec![x509_cert::ext::pkix::name::GeneralName::DirectoryName(cert.tbs_certificate.issuer.clone())],
        serial_number: cert.tbs_certificate.serial_number.clone(),
    }
    .to_der()?;
    let when = t
        .to_offset(time::UtcOffset::UTC)
        .replace_nanosecond(0)
        .map_err(|e| Error::Xml(e.to_string()))?
        .format(&time::format_description::well_known::Rfc3339)
        .map_err(|e| Error::Xml(e.to_string()))?;
    Ok(format!(
        "<xades:SignedProperties Id=\"xades-{id}\"><xades:SignedSignatureProperties>\
<xades:SigningTime>{when}</xades:SigningTime><xades:SigningCertificateV2><xades:Cert>\
<xades:CertDigest><ds:DigestMethod Algorithm=\"{SHA256_URI}\"/><ds:DigestValue>{d}</ds:DigestValue></xades:CertDigest>\
<xades:IssuerSerialV2>{is}</xades:IssuerSerialV2></xades:Cert></xades:SigningCertificateV2>\
</xades:SignedSignatureProperties></xades:SignedProperties>",
        d = B64.encode(pki::sha256(cert_der)),
        is = B64.encode(issuer_serial),
    ))
}

/// XML-DSig ECDSA signatures are r||s (RFC 4050 / XMLDSig 1.1), not DER.
fn xml_signature_value(alg: SigAlg, raw: &[u8]) -> Result<Vec<u8>> {
    match alg {
        SigAlg::RsaPkcs1Sha256 => Ok(raw.to_vec()),
        SigAlg::EcdsaP256Sha256 => ecdsa_der_to_fixed(raw, 32),
    }
}

#[derive(der::Sequence)]
struct EcdsaSigValue<'a> {
    r: der::asn1::UintRef<'a>,
    s: der::asn1::UintRef<'a>,
}

fn ecdsa_der_to_fixed(sig: &[u8], width: usize) -> Result<Vec<u8>> {
    let v: EcdsaSigValue<'_> = der::Decode::from_der(sig)?;
    let mut out = vec![0u8; 2 * width];
    for (i, int) in [v.r, v.s].iter().enumerate() {
        let b = int.as_bytes();
        if b.len() > width {
            return Err(Error::Crypto("ECDSA integer too long".into()));
        }
        let start = i * width + (width - b.len());
        out[start..start + b.len()].copy_from_slice(b);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Finding things
// ---------------------------------------------------------------------------------------------

/// An element found with the namespace scope of its *parent* (what c14n_subtree expects).
type Found<'a> = (&'a Element, NsScope);

fn all_elements<'a>(doc: &'a Document) -> Vec<(Vec<&'a Element>, NsScope)> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    xml::walk(&doc.root, &mut path, &mut |p: &[&'a Element]| {
        out.push((p.to_vec(), xml::scope_of(p)));
    });
    out
}

fn parent_scope(path: &[&Element]) -> NsScope {
    xml::scope_of(&path[..path.len().saturating_sub(1)])
}

/// The element whose Id/ID/id attribute equals `id`. It must be unique: two elements with
/// the same ID are a signature-wrapping attack pattern.
fn find_by_id<'a>(doc: &'a Document, id: &str) -> Result<Found<'a>> {
    let mut hits = Vec::new();
    for (path, _) in all_elements(doc) {
        let el = path[path.len() - 1];
        if ["Id", "ID", "id"].iter().any(|a| el.attr(a) == Some(id)) {
            hits.push((el, parent_scope(&path)));
        }
    }
    match hits.len() {
        1 => hits.pop().ok_or_else(|| Error::Xml("unreachable".into())),
        0 => Err(Error::Xml(format!("no element with Id \"{id}\""))),
        _ => Err(Error::Xml(format!("Id \"{id}\" is not unique"))),
    }
}

fn is_ds(el: &Element, scope_incl: &NsScope, local: &str) -> bool {
    el.local_name() == local && xml::element_ns(el, scope_incl) == DSIG_NS
}

fn find_signed_info<'a>(doc: &'a Document, id: &str) -> Result<Found<'a>> {
    let (sig, pscope) = find_by_id(doc, &format!("sig-{id}"))?;
    let scope = xml::extend_scope(&pscope, sig);
    let si = sig
        .child_elements()
        .find(|c| is_ds(c, &xml::extend_scope(&scope, c), "SignedInfo"))
        .ok_or_else(|| Error::Xml("SignedInfo missing".into()))?;
    Ok((si, scope))
}

fn ds_child<'a>(el: &'a Element, scope: &NsScope, local: &str) -> Option<&'a Element> {
    el.child_elements().find(|c| is_ds(c, &xml::extend_scope(scope, c), local))
}

fn ds_children<'a>(el: &'a Element, scope: &NsScope, local: &str) -> Vec<&'a Element> {
    el.child_elements().filter(|c| is_ds(c, &xml::extend_scope(scope, c), local)).collect()
}

// ---------------------------------------------------------------------------------------------
// Verification
// ---------------------------------------------------------------------------------------------

/// Result for one Signature element.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct XmlSignatureReport {
    /// All references digest correctly and SignatureValue verifies.
    pub intact: bool,
    /// A Reference URI="" with the enveloped transform covers the whole document.
    pub covers_document: bool,
    /// The signer certificate chains to the trust store.
    pub trusted: bool,
    /// intact && covers_document && trusted (&& XAdES certificate binding when present).
    pub valid: bool,
    pub signer_subject: Option<String>,
    pub signer_common_name: Option<String>,
    /// The signer certificate's issuer (RFC 4514 string).
    pub issuer: Option<String>,
    /// Subjects of the certification path to the trust anchor, leaf first (when trusted).
    pub chain: Vec<String>,
    /// The signer certificate (DER).
    #[serde(skip)]
    pub signer_certificate: Option<Vec<u8>>,
    /// XAdES SigningTime (claimed).
    pub signing_time: Option<String>,
    pub xades: bool,
    pub references_ok: usize,
    pub references_total: usize,
    /// EN 319 102-1 main indication (absent for a signature checked against a pinned key).
    pub indication: Option<Indication>,
    pub sub_indication: Option<SubIndication>,
    /// The XAdES baseline level reached (`B-B`, `B-T`, `B-LT`; absent for a signature checked
    /// against a pinned key).
    pub level: Option<String>,
    /// The first XAdES SignatureTimeStamp.
    pub timestamp: Option<TimestampReport>,
    /// The signature carries revocation values (XAdES RevocationValues).
    pub revocation_data: bool,
    pub errors: Vec<String>,
}

/// Report for a document.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct XmlReport {
    pub valid: bool,
    pub signatures: Vec<XmlSignatureReport>,
}

/// Verify every ds:Signature in the document. Errors only for unparseable XML or a document
/// without signatures.
pub fn verify_enveloped(xml_bytes: &[u8], trust: &TrustStore, opts: &VerifyOptions) -> Result<XmlReport> {
    let text = xml::as_text(xml_bytes)?;
    let doc = xml::parse(text)?;
    let sigs = signatures_of(&doc)?;
    let signatures: Vec<XmlSignatureReport> =
        sigs.iter().map(|(sig, pscope)| verify_one(&doc, sig, pscope, SignerKey::KeyInfo(trust, opts))).collect();
    Ok(XmlReport { valid: signatures.iter().all(|s| s.valid), signatures })
}

/// Verify every ds:Signature in the document with the key of `pinned_cert_der` only, for a
/// party whose one certificate is configured (an eSign ESP, a registered ASP). KeyInfo is not
/// read at all: whatever certificates it (or anything else in the signature) carries, a
/// signature verifies only if the pinned key made it, so a document signed with another key
/// that merely names the pinned certificate somewhere is never valid. Pinning is the trust
/// decision: `trusted` means the pinned key verified the SignatureValue.
pub fn verify_enveloped_pinned(xml_bytes: &[u8], pinned_cert_der: &[u8]) -> Result<XmlReport> {
    verify_enveloped_pinned_with(xml_bytes, pinned_cert_der, PinnedPolicy::default())
}

/// What a pinned verification takes beyond SHA-2.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PinnedPolicy {
    /// SHA-1 as a reference digest and RSA-SHA1 as the signature method. SHA-1 collisions
    /// can be bought (SHAttered, 2017; chosen-prefix, 2020), so a party that can get a
    /// document of its choosing signed could in principle swap it for a colliding one; for
    /// an answer whose every field the pinned party itself writes and signs, that risk is
    /// the party's own, which is why only a party's configuration turns this on.
    pub allow_sha1: bool,
}

/// [`verify_enveloped_pinned`] with a policy, for the parties whose configuration allows more
/// (an eSign ESP that signs its answers with SHA-1). A KeyInfo is not needed; when it carries
/// certificates, one must be the pinned certificate byte for byte and every other one a CA
/// certificate (a chain), or the signature is refused: a KeyInfo naming another signer says
/// the document was meant for another key, whatever key verifies it.
pub fn verify_enveloped_pinned_with(
    xml_bytes: &[u8],
    pinned_cert_der: &[u8],
    policy: PinnedPolicy,
) -> Result<XmlReport> {
    let text = xml::as_text(xml_bytes)?;
    let doc = xml::parse(text)?;
    let pinned = pki::parse_cert(pinned_cert_der)?;
    let sigs = signatures_of(&doc)?;
    let key = SignerKey::Pinned { der: pinned_cert_der, cert: &pinned, policy };
    let signatures: Vec<XmlSignatureReport> =
        sigs.iter().map(|(sig, pscope)| verify_one(&doc, sig, pscope, key)).collect();
    Ok(XmlReport { valid: signatures.iter().all(|s| s.valid), signatures })
}

/// Every ds:Signature of the document with its parent's namespace scope; none is an error.
fn signatures_of(doc: &Document) -> Result<Vec<(&Element, NsScope)>> {
    let sigs: Vec<(&Element, NsScope)> = all_elements(doc)
        .iter()
        .filter(|(path, scope)| is_ds(path[path.len() - 1], scope, "Signature"))
        .map(|(path, _)| (path[path.len() - 1], parent_scope(path)))
        .collect();
    if sigs.is_empty() {
        return Err(Error::Xml("no ds:Signature element in the document".into()));
    }
    Ok(sigs)
}

/// Where the key that must have made a signature comes from.
#[derive(Clone, Copy)]
enum SignerKey<'a> {
    /// The signature's own KeyInfo (first certificate the signer, the rest its chain), then
    /// trusted only if that certificate chains to the trust store.
    KeyInfo(&'a TrustStore, &'a VerifyOptions),
    /// One configured certificate: the key verified with. KeyInfo, when present, must name it.
    Pinned { der: &'a [u8], cert: &'a x509_cert::Certificate, policy: PinnedPolicy },
}

impl SignerKey<'_> {
    /// SHA-1 as a reference digest: as before for signatures judged through KeyInfo (a
    /// validation report says what it found); for a pinned party only when its policy allows.
    fn sha1_digest_allowed(&self) -> bool {
        match self {
            SignerKey::KeyInfo(..) => true,
            SignerKey::Pinned { policy, .. } => policy.allow_sha1,
        }
    }

    /// RSA-SHA1 as the signature method: only for a pinned party whose policy allows it.
    fn sha1_signature_allowed(&self) -> bool {
        matches!(self, SignerKey::Pinned { policy: PinnedPolicy { allow_sha1: true }, .. })
    }
}

fn verify_one(doc: &Document, sig: &Element, pscope: &NsScope, key: SignerKey<'_>) -> XmlSignatureReport {
    let mut r = XmlSignatureReport {
        intact: false,
        covers_document: false,
        trusted: false,
        valid: false,
        signer_subject: None,
        signer_common_name: None,
        issuer: None,
        chain: Vec::new(),
        signer_certificate: None,
        signing_time: None,
        xades: false,
        references_ok: 0,
        references_total: 0,
        indication: None,
        sub_indication: None,
        level: None,
        timestamp: None,
        revocation_data: false,
        errors: Vec::new(),
    };
    if let Err(e) = verify_inner(doc, sig, pscope, key, &mut r) {
        r.errors.push(e.to_string());
        if matches!(key, SignerKey::KeyInfo(..)) {
            (r.indication, r.sub_indication) = (Some(Indication::TotalFailed), Some(SubIndication::FormatFailure));
        }
    }
    r.valid = r.intact && r.covers_document && r.trusted && r.errors.is_empty();
    r
}

// Long on purpose: XML-DSig core validation in the order the standard gives (each reference's
// transforms and digest, SignedInfo canonicalized, the signature value, the key), each step
// recording its finding in the report.
fn verify_inner(
    doc: &Document,
    sig: &Element,
    pscope: &NsScope,
    key: SignerKey<'_>,
    r: &mut XmlSignatureReport,
) -> Result<()> {
    let scope = xml::extend_scope(pscope, sig);
    let si = ds_child(sig, &scope, "SignedInfo").ok_or_else(|| Error::Xml("SignedInfo missing".into()))?;
    let si_scope = xml::extend_scope(&scope, si);
    let c14n_alg = ds_child(si, &si_scope, "CanonicalizationMethod")
        .and_then(|e| e.attr("Algorithm"))
        .ok_or_else(|| Error::Xml("CanonicalizationMethod missing".into()))?;
    let (inclusive, with_comments) =
        c14n_method(c14n_alg).ok_or_else(|| Error::Xml(format!("unsupported canonicalization {c14n_alg}")))?;
    let method = ds_child(si, &si_scope, "SignatureMethod")
        .and_then(|e| e.attr("Algorithm"))
        .ok_or_else(|| Error::Xml("SignatureMethod missing".into()))?
        .to_string();

    // The signer's certificate: from KeyInfo, or the pinned one (KeyInfo then never read).
    let (cert_der, chain, cert) = match key {
        SignerKey::KeyInfo(..) => {
            let certs = key_info_certs(sig, &scope)?;
            let cert_der = certs.first().ok_or_else(|| Error::Xml("no X509Certificate in KeyInfo".into()))?.clone();
            let cert = pki::parse_cert(&cert_der)?;
            (cert_der, certs[1..].to_vec(), cert)
        }
        SignerKey::Pinned { der, cert, .. } => {
            check_key_info_names(&key_info_certs(sig, &scope)?, der)?;
            (der.to_vec(), Vec::new(), cert.clone())
        }
    };
    r.signer_subject = Some(cert.tbs_certificate.subject.to_string());
    r.signer_common_name = pki::name_common_name(&cert.tbs_certificate.subject);
    r.issuer = Some(cert.tbs_certificate.issuer.to_string());
    r.signer_certificate = Some(cert_der.clone());

    // References.
    let refs = ds_children(si, &si_scope, "Reference");
    r.references_total = refs.len();
    let mut all_refs_ok = !refs.is_empty();
    // The SignedProperties that a valid Reference digests (not merely the first ones found).
    let mut referenced_props: Option<&Element> = None;
    for reference in &refs {
        match check_reference(doc, sig, reference, &xml::extend_scope(&si_scope, reference), key.sha1_digest_allowed())
        {
            Ok(kind) => {
                r.references_ok += 1;
                match kind {
                    RefKind::Document => r.covers_document = true,
                    RefKind::SignedProperties(props) => {
                        if referenced_props.is_some_and(|seen| !std::ptr::eq(seen, props)) {
                            r.errors.push("more than one SignedProperties is referenced".into());
                        }
                        referenced_props = Some(props);
                    }
                    RefKind::Other => {}
                }
            }
            Err(e) => {
                all_refs_ok = false;
                r.errors.push(e.to_string());
            }
        }
    }

    // SignatureValue over canonical SignedInfo.
    // Inclusive: SignedInfo, the apex, takes the xml: attributes of the Signature and above.
    let inherited = if inclusive { xml::inherited_xml_attrs(doc, si) } else { Vec::new() };
    let c14n_el = ds_child(si, &si_scope, "CanonicalizationMethod");
    let prefixes = match (inclusive, c14n_el) {
        (false, Some(el)) => inclusive_namespace_prefixes(el),
        _ => Vec::new(),
    };
    let p = C14n { with_comments, exclude: None, inclusive, inherited_xml: &inherited, inclusive_prefixes: &prefixes };
    let si_c14n = xml::c14n_subtree(si, &scope, p)?;
    let sv = ds_child(sig, &scope, "SignatureValue").ok_or_else(|| Error::Xml("SignatureValue missing".into()))?;
    let sig_bytes = b64_decode(&sv.text())?;
    let sig_ok = verify_xml_signature(&cert, &method, si_c14n.as_bytes(), &sig_bytes, key.sha1_signature_allowed());
    if let Err(e) = &sig_ok {
        r.errors.push(e.to_string());
    }
    r.intact = all_refs_ok && sig_ok.is_ok();

    // XAdES: the SignedProperties reported are the ones the Reference of type SignedProperties
    // points at (by Id) and digests; they must bind the signer certificate. SignedProperties
    // that no valid Reference covers (a decoy placed first, say) are never reported.
    let mut xades_ok = true;
    if let Some(props) = referenced_props {
        r.xades = true;
        match check_xades_props(props, &cert_der) {
            Ok(t) => r.signing_time = t,
            Err(e) => {
                xades_ok = false;
                r.errors.push(e.to_string());
            }
        }
    } else if find_signed_props(sig, &scope).is_some() {
        r.xades = true;
        xades_ok = false;
        r.errors.push("XAdES SignedProperties are not covered by a valid Reference".into());
    }

    // Trust, and the EN 319 102-1 indication: the KeyInfo's certificate counts only through a
    // path to a trusted anchor (key material from KeyInfo alone is never trusted), judged at
    // the validation time (XAdES-B has no time-stamp to prove an earlier one).
    match key {
        SignerKey::KeyInfo(trust, opts) => {
            let format_ok = xades_ok && (r.covers_document || !all_refs_ok);
            let found = SignatureFacts {
                format_ok,
                hash_ok: all_refs_ok,
                signature_value_ok: sig_ok.is_ok(),
                cert_der: &cert_der,
                pool: chain,
            };
            judge_with_key_info(sig, &scope, found, (trust, opts), r);
        }
        // The SignatureValue was checked with the pinned key itself.
        SignerKey::Pinned { .. } => r.trusted = sig_ok.is_ok(),
    }
    Ok(())
}

/// What core validation found, for the EN 319 102-1 indication, and the signer's certificate
/// with the others KeyInfo carries.
struct SignatureFacts<'a> {
    /// A signature whose references all hold but none covers the document signs something
    /// else (signature wrapping): not this document's signature.
    format_ok: bool,
    hash_ok: bool,
    signature_value_ok: bool,
    cert_der: &'a [u8],
    pool: Vec<Vec<u8>>,
}

/// Trust, long-term properties and the EN 319 102-1 indication: the KeyInfo's certificate
/// counts only through a path to a trusted anchor (key material from KeyInfo alone is never
/// trusted), judged at the validation time, or at the earlier time a trusted signature
/// time-stamp proves the signature existed at; the revocation values the signature carries
/// (XAdES B-LT) give the certificates' status without asking anyone.
fn judge_with_key_info(
    sig: &Element,
    scope: &NsScope,
    found: SignatureFacts<'_>,
    (trust, opts): (&TrustStore, &VerifyOptions),
    r: &mut XmlSignatureReport,
) {
    let mut pool = found.pool;
    let long_term = match long_term::check_long_term(sig, scope, &pool, trust, timestamp_checked_at(opts)) {
        Ok(check) => Some(check),
        Err(e) => {
            r.errors.push(e.to_string());
            None
        }
    };
    let mut revocation = opts.revocation.clone();
    let mut timestamp_proof = None;
    if let Some(check) = &long_term {
        pool.extend(check.values.certificates.iter().cloned());
        revocation.ocsps.extend(check.values.ocsps.iter().cloned());
        revocation.crls.extend(check.values.crls.iter().cloned());
        r.revocation_data = !check.values.ocsps.is_empty() || !check.values.crls.is_empty();
        if let Some(t) = &check.timestamp {
            if let Some(e) = &t.error {
                r.errors.push(format!("signature time-stamp: {e}"));
            }
            timestamp_proof = check.timestamp_time.filter(|_| t.intact && t.trusted);
        }
        r.timestamp = check.timestamp.clone();
    }
    let poe = match (timestamp_proof, opts.proven_existence) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    // Only a trusted time-stamp moves the time the path is checked at.
    let at = path_checked_at(opts.validation_time, poe, None);
    let checked = check_certificate(found.cert_der, &pool, trust, at, &revocation);
    r.trusted = checked.trusted;
    if checked.trusted {
        r.chain = checked.chain.iter().map(|c| c.tbs_certificate.subject.to_string()).collect();
    }
    r.errors.extend(checked.error);
    let status_known = matches!(checked.status, Some(CertificateStatus::Good | CertificateStatus::Revoked { .. }));
    r.level = Some(
        match (timestamp_proof, r.revocation_data && status_known) {
            (Some(_), true) => "B-LT",
            (Some(_), false) => "B-T",
            (None, _) => "B-B",
        }
        .to_string(),
    );
    let facts = Facts {
        format_ok: found.format_ok,
        hash_ok: found.hash_ok,
        signature_value_ok: found.signature_value_ok,
        certificate: checked.facts,
        poe,
        now: opts.validation_time.unwrap_or_else(now_unix),
    };
    let (indication, sub) = indicate(&facts);
    (r.indication, r.sub_indication) = (Some(indication), sub);
}

fn now_unix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

enum RefKind<'a> {
    Document,
    /// The element the reference points at and digests.
    SignedProperties(&'a Element),
    Other,
}

/// One Reference: its transforms (the enveloped-signature transform and one C14N 1.0, either
/// form, with or without comments; none means inclusive C14N without comments, the default
/// XML-DSig §4.3.3.2 gives a node-set turned into octets), its digest (SHA-1 only when
/// `sha1_ok`), and the digest compared.
fn check_reference<'a>(
    doc: &'a Document,
    sig: &Element,
    reference: &Element,
    scope: &NsScope,
    sha1_ok: bool,
) -> Result<RefKind<'a>> {
    let uri = reference.attr("URI").ok_or_else(|| Error::Xml("Reference without URI is not supported".into()))?;
    let mut enveloped = false;
    let mut method = None;
    let mut prefixes = Vec::new();
    if let Some(tr) = ds_child(reference, scope, "Transforms") {
        let tr_scope = xml::extend_scope(scope, tr);
        for t in ds_children(tr, &tr_scope, "Transform") {
            let algorithm = t.attr("Algorithm").unwrap_or("");
            if algorithm == ENVELOPED {
                enveloped = true;
            } else if let Some(found) = c14n_method(algorithm) {
                if method.replace(found).is_some() {
                    return Err(Error::Xml("a reference with two canonicalization transforms".into()));
                }
                if !found.0 {
                    prefixes = inclusive_namespace_prefixes(t);
                }
            } else {
                return Err(Error::Xml(format!("unsupported transform {algorithm}")));
            }
        }
    }
    let (inclusive, with_comments) = method.unwrap_or((true, false));
    let digest_alg = ds_child(reference, scope, "DigestMethod")
        .and_then(|e| e.attr("Algorithm"))
        .ok_or_else(|| Error::Xml("DigestMethod missing".into()))?;
    let hash = match digest_alg {
        SHA256_URI => HashAlg::Sha256,
        SHA384_URI => HashAlg::Sha384,
        SHA512_URI => HashAlg::Sha512,
        SHA1_URI if sha1_ok => HashAlg::Sha1,
        SHA1_URI => return Err(Error::Verify("SHA-1 digests are not accepted here".into())),
        other => return Err(Error::Xml(format!("unsupported digest {other}"))),
    };
    let expected = b64_decode(
        &ds_child(reference, scope, "DigestValue").ok_or_else(|| Error::Xml("DigestValue missing".into()))?.text(),
    )?;
    let exclude = if enveloped { Some(sig) } else { None };
    let p = C14n { with_comments, exclude, inclusive, inherited_xml: &[], inclusive_prefixes: &prefixes };
    let (c14n, kind) = if uri.is_empty() {
        if !enveloped {
            return Err(Error::Xml("URI=\"\" reference without the enveloped-signature transform".into()));
        }
        // URI="" excludes comments even with the WithComments transform (XML-DSig §4.4.3.3).
        let p = C14n { with_comments: false, ..p };
        (xml::c14n_document(doc, p)?, RefKind::Document)
    } else if let Some(id) = uri.strip_prefix('#') {
        let (el, pscope) = find_by_id(doc, id)?;
        let kind = if reference.attr("Type") == Some(SIGNED_PROPS_TYPE) {
            let el_scope = xml::extend_scope(&pscope, el);
            if el.local_name() != "SignedProperties" || xml::element_ns(el, &el_scope) != XADES_NS {
                return Err(Error::Xml(format!("reference \"{uri}\" of type SignedProperties points elsewhere")));
            }
            RefKind::SignedProperties(el)
        } else {
            RefKind::Other
        };
        let inherited = if inclusive { xml::inherited_xml_attrs(doc, el) } else { Vec::new() };
        (xml::c14n_subtree(el, &pscope, C14n { inherited_xml: &inherited, ..p })?, kind)
    } else {
        return Err(Error::Xml(format!("external reference {uri} is not supported")));
    };
    if hash.digest(c14n.as_bytes()) != expected {
        return Err(Error::Verify(format!("digest of reference \"{uri}\" does not match")));
    }
    Ok(kind)
}

/// The PrefixList of an exclusive canonicalization's `InclusiveNamespaces` parameter (a child
/// of its Transform or CanonicalizationMethod, Exclusive XML Canonicalization 1.0 §4), with
/// `#default` as "" (the default namespace). Java signers (Apache Santuario) write one.
fn inclusive_namespace_prefixes(method: &Element) -> Vec<String> {
    method
        .child_elements()
        .filter(|e| e.local_name() == "InclusiveNamespaces")
        .filter_map(|e| e.attr("PrefixList"))
        .flat_map(str::split_whitespace)
        .map(|prefix| if prefix == "#default" { String::new() } else { prefix.to_string() })
        .collect()
}

/// A pinned party's KeyInfo may name no certificate (the pinned one is used), or the pinned
/// one, byte for byte, with CA certificates beside it (its chain); any other certificate says
/// another signer, and is refused even when the pinned key made the signature.
fn check_key_info_names(named: &[Vec<u8>], pinned_der: &[u8]) -> Result<()> {
    if named.is_empty() {
        return Ok(());
    }
    if !named.iter().any(|c| c == pinned_der) {
        return Err(Error::Verify("KeyInfo names a certificate other than the registered one".into()));
    }
    for other in named.iter().filter(|c| c.as_slice() != pinned_der) {
        if !pki::is_ca_certificate(other).unwrap_or(false) {
            return Err(Error::Verify("KeyInfo names a signer certificate other than the registered one".into()));
        }
    }
    Ok(())
}

fn key_info_certs(sig: &Element, scope: &NsScope) -> Result<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    let Some(ki) = ds_child(sig, scope, "KeyInfo") else {
        return Ok(out);
    };
    let ki_scope = xml::extend_scope(scope, ki);
    for xd in ds_children(ki, &ki_scope, "X509Data") {
        let xd_scope = xml::extend_scope(&ki_scope, xd);
        for c in ds_children(xd, &xd_scope, "X509Certificate") {
            out.push(b64_decode(&c.text())?);
        }
    }
    Ok(out)
}

fn find_signed_props<'a>(sig: &'a Element, scope: &NsScope) -> Option<&'a Element> {
    for obj in ds_children(sig, scope, "Object") {
        let os = xml::extend_scope(scope, obj);
        for qp in obj.child_elements() {
            let qs = xml::extend_scope(&os, qp);
            if qp.local_name() == "QualifyingProperties" && xml::element_ns(qp, &qs) == XADES_NS {
                return qp.child_elements().find(|sp| sp.local_name() == "SignedProperties");
            }
        }
    }
    None
}

/// Check SigningCertificate(V2)/Cert/CertDigest against the signer certificate; return the
/// SigningTime if present.
fn check_xades_props(props: &Element, cert_der: &[u8]) -> Result<Option<String>> {
    let ssp = props
        .child_elements()
        .find(|e| e.local_name() == "SignedSignatureProperties")
        .ok_or_else(|| Error::Xml("SignedSignatureProperties missing".into()))?;
    let time = ssp.child_elements().find(|e| e.local_name() == "SigningTime").map(|e| e.text().trim().to_string());
    let sc = ssp
        .child_elements()
        .find(|e| e.local_name() == "SigningCertificateV2" || e.local_name() == "SigningCertificate")
        .ok_or_else(|| Error::Xml("XAdES SigningCertificate missing".into()))?;
    let mut matched = false;
    for c in sc.child_elements().filter(|e| e.local_name() == "Cert") {
        let Some(cd) = c.child_elements().find(|e| e.local_name() == "CertDigest") else {
            continue;
        };
        let alg = cd
            .child_elements()
            .find(|e| e.local_name() == "DigestMethod")
            .and_then(|e| e.attr("Algorithm"))
            .unwrap_or("");
        let hash = match alg {
            SHA256_URI => HashAlg::Sha256,
            SHA384_URI => HashAlg::Sha384,
            SHA512_URI => HashAlg::Sha512,
            SHA1_URI => HashAlg::Sha1,
            _ => continue,
        };
        let val = cd.child_elements().find(|e| e.local_name() == "DigestValue").map(|e| e.text()).unwrap_or_default();
        if b64_decode(&val)? == hash.digest(cert_der) {
            matched = true;
        }
    }
    if !matched {
        return Err(Error::Verify("XAdES SigningCertificate does not match the signer certificate".into()));
    }
    Ok(time)
}

fn b64_decode(s: &str) -> Result<Vec<u8>> {
    let clean: String = s.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    B64.decode(clean.as_bytes()).map_err(|e| Error::Encoding(format!("bad base64: {e}")))
}

/// The SignatureValue checked with the certificate's key; RSA-SHA1 only when `sha1_ok`.
fn verify_xml_signature(
    cert: &x509_cert::Certificate,
    method: &str,
    data: &[u8],
    sig: &[u8],
    sha1_ok: bool,
) -> Result<()> {
    let spki = &cert.tbs_certificate.subject_public_key_info;
    let key = spki.subject_public_key.raw_bytes();
    let is_rsa = spki.algorithm.oid == const_oid::db::rfc5912::RSA_ENCRYPTION;
    let alg: &'static dyn awssig::VerificationAlgorithm = match method {
        RSA_SHA1 if is_rsa && sha1_ok => &awssig::RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY,
        RSA_SHA1 => return Err(Error::Verify("RSA-SHA1 signatures are not accepted here".into())),
        RSA_SHA256 if is_rsa => &awssig::RSA_PKCS1_2048_8192_SHA256,
        RSA_SHA384 if is_rsa => &awssig::RSA_PKCS1_2048_8192_SHA384,
        RSA_SHA512 if is_rsa => &awssig::RSA_PKCS1_2048_8192_SHA512,
        ECDSA_SHA256 if !is_rsa => &awssig::ECDSA_P256_SHA256_FIXED,
        other => {
            return Err(Error::Verify(format!(
                "signature method {other} does not fit the certificate key or is unsupported"
            )));
        }
    };
    UnparsedPublicKey::new(alg, key)
        .verify(data, sig)
        .map_err(|_| Error::Verify("SignatureValue does not verify".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pki::{KeyAlgo, LocalCa};
    use crate::signer::LocalKeySigner;

    #[test]
    fn sign_and_verify_roundtrip() -> Result<()> {
        let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256)?;
        let trust = TrustStore::from_der_certs(&[ca.cert_der().to_vec()])?;
        for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
            let ee = ca.issue_signer("X", algo)?;
            let s = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![ca.cert_der().to_vec()])?;
            for opts in [XmlSignOptions::default(), XmlSignOptions::xades()] {
                let doc = b"<?xml version=\"1.0\"?>\n<r xmlns=\"urn:x\"><a  b='1'>t&amp;x</a><e/></r>\n";
                let signed = sign_enveloped(doc, &s, &opts)?;
                let rep = verify_enveloped(&signed, &trust, &VerifyOptions::default())?;
                assert!(rep.valid, "{rep:#?}");
                let tampered = String::from_utf8_lossy(&signed).replace("t&amp;x", "t&amp;y");
                let rep = verify_enveloped(tampered.as_bytes(), &trust, &VerifyOptions::default())?;
                assert!(!rep.valid);
            }
        }
        let ee = ca.issue_signer("Y", KeyAlgo::EcP256)?;
        let s = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![])?;
        let signed = sign_enveloped(b"<r/>", &s, &XmlSignOptions::default())?;
        assert!(verify_enveloped(&signed, &trust, &VerifyOptions::default())?.valid);
        Ok(())
    }

    #[test]
    fn long_term_values_go_into_a_signature_without_id_and_leave_it_valid() -> Result<()> {
        let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256)?;
        let trust = TrustStore::from_der_certs(&[ca.cert_der().to_vec()])?;
        let ee = ca.issue_signer("X", KeyAlgo::Rsa2048)?;
        let s = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![])?;
        let signed =
            String::from_utf8_lossy(&sign_enveloped(b"<r><a>t</a></r>", &s, &XmlSignOptions::default())?).into_owned();
        // A signature made elsewhere, without an Id (the enveloped transform drops it anyway).
        let id_at = signed.find(" Id=\"sig-").ok_or_else(|| Error::Xml("no Id".into()))?;
        let id_end = id_at + signed[id_at + 5..].find('"').ok_or_else(|| Error::Xml("no quote".into()))? + 6;
        let foreign = format!("{}{}", &signed[..id_at], &signed[id_end..]);
        assert!(verify_enveloped(foreign.as_bytes(), &trust, &VerifyOptions::default())?.valid);

        let values = LongTermValues { certificates: vec![ca.cert_der().to_vec()], ..Default::default() };
        let extended = add_long_term_values(foreign.as_bytes(), &values)?;
        let text = String::from_utf8_lossy(&extended);
        let doc = xml::parse(&text)?;
        let (sig, _) = signatures_of(&doc)?.pop().ok_or_else(|| Error::Xml("no signature".into()))?;
        let target = format!("Target=\"#{}\"", sig.attr("Id").ok_or_else(|| Error::Xml("no Id added".into()))?);
        assert!(text.contains(&target), "{text}");
        assert_eq!(long_term_material(&extended)?.held.certificates, values.certificates);
        let rep = verify_enveloped(&extended, &trust, &VerifyOptions::default())?;
        assert!(rep.valid && rep.signatures[0].level.as_deref() == Some("B-B"), "{rep:#?}");
        Ok(())
    }

    #[test]
    fn xades_reports_the_signed_properties_the_reference_digests() -> Result<()> {
        let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256)?;
        let trust = TrustStore::from_der_certs(&[ca.cert_der().to_vec()])?;
        let ee = ca.issue_signer("X", KeyAlgo::EcP256)?;
        let s = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![ca.cert_der().to_vec()])?;
        let when = OffsetDateTime::from_unix_timestamp(1_700_000_000).map_err(|e| Error::Xml(e.to_string()))?;
        let opts = XmlSignOptions { signing_time: Some(when), ..XmlSignOptions::xades() };
        let signed = String::from_utf8_lossy(&sign_enveloped(b"<r><a>t</a></r>", &s, &opts)?).into_owned();
        let genuine = verify_enveloped(signed.as_bytes(), &trust, &VerifyOptions::default())?;
        assert!(genuine.valid, "{genuine:#?}");
        assert_eq!(genuine.signatures[0].signing_time.as_deref(), Some("2023-11-14T22:13:20Z"));

        // A decoy QualifyingProperties with its own SignedProperties, placed before the real
        // one. Objects are outside SignedInfo, so the signature itself stays intact.
        let decoy = format!(
            "<ds:Object><xades:QualifyingProperties xmlns:xades=\"{XADES_NS}\"><xades:SignedProperties Id=\"decoy\">\
<xades:SignedSignatureProperties><xades:SigningTime>1999-01-01T00:00:00Z</xades:SigningTime>\
</xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties></ds:Object>"
        );
        let at = signed.find("</ds:KeyInfo>").ok_or_else(|| Error::Xml("no KeyInfo".into()))? + "</ds:KeyInfo>".len();
        let with_decoy = format!("{}{decoy}{}", &signed[..at], &signed[at..]);
        let rep = verify_enveloped(with_decoy.as_bytes(), &trust, &VerifyOptions::default())?;
        let sig = &rep.signatures[0];
        assert!(rep.valid, "{rep:#?}");
        assert!(sig.xades);
        assert_eq!(sig.signing_time.as_deref(), Some("2023-11-14T22:13:20Z"), "{sig:#?}");

        // Pointing the Reference at the decoy breaks its digest: not reported, not valid.
        let retargeted = with_decoy.replacen("URI=\"#xades-", "URI=\"#decoy\" data-was=\"", 1);
        let rep = verify_enveloped(retargeted.as_bytes(), &trust, &VerifyOptions::default())?;
        assert!(!rep.valid);
        assert_ne!(rep.signatures[0].signing_time.as_deref(), Some("1999-01-01T00:00:00Z"));
        Ok(())
    }
}
