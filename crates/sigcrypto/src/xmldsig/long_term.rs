//! XAdES long-term properties (ETSI EN 319 132-1 §5.3 and §5.5): the signature time-stamp over
//! `ds:SignatureValue`, and the certificates and revocation values that validate the signature
//! once its certificates have expired, in the signature's `UnsignedSignatureProperties`.
//!
//! Unsigned properties lie outside everything the signature digests (SignedInfo references the
//! document, whose enveloped transform drops the whole Signature, and SignedProperties), so
//! adding them leaves the signature valid.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;

use super::{
    DSIG_NS, EXC_C14N, EXC_C14N_COMMENTS, XADES_NS, b64_decode, ds_child, key_info_certs, random_id, signatures_of,
};
use crate::verify::{TimestampReport, TrustStore, token_report};
use crate::xml::{self, C14n, Element, NsScope};
use crate::{Error, Result};

/// What the one signature of a document carries for long-term validation, and what a signature
/// time-stamp over it covers.
#[derive(Debug, Clone, Default)]
pub struct LongTermMaterial {
    /// The signer's certificate (KeyInfo's first).
    pub signer_certificate: Vec<u8>,
    /// KeyInfo's other certificates.
    pub key_info_chain: Vec<Vec<u8>>,
    /// The `ds:SignatureValue` element, exclusively canonicalised: what a signature
    /// time-stamp's imprint is over.
    pub signature_value_c14n: Vec<u8>,
    /// The values already in its UnsignedSignatureProperties.
    pub held: LongTermValues,
}

/// Time-stamp tokens, certificates, CRLs and OCSP responses (DER) of XAdES unsigned properties.
#[derive(Debug, Clone, Default)]
pub struct LongTermValues {
    /// `SignatureTimeStamp` tokens, in document order.
    pub signature_timestamps: Vec<Vec<u8>>,
    /// `CertificateValues`.
    pub certificates: Vec<Vec<u8>>,
    /// `RevocationValues/CRLValues`.
    pub crls: Vec<Vec<u8>>,
    /// `RevocationValues/OCSPValues` (each a whole OCSPResponse).
    pub ocsps: Vec<Vec<u8>>,
}

impl LongTermValues {
    pub fn is_empty(&self) -> bool {
        self.signature_timestamps.is_empty()
            && self.certificates.is_empty()
            && self.crls.is_empty()
            && self.ocsps.is_empty()
    }
}

/// [`LongTermMaterial`] of the document's only signature (a document with several is refused:
/// which one to extend would be a guess).
pub fn long_term_material(xml_bytes: &[u8]) -> Result<LongTermMaterial> {
    let doc = xml::parse(xml::as_text(xml_bytes)?)?;
    let (sig, pscope) = only_signature(&doc)?;
    let scope = xml::extend_scope(&pscope, sig);
    let mut certs = key_info_certs(sig, &scope)?;
    if certs.is_empty() {
        return Err(Error::Xml("the signature carries no certificate in KeyInfo".into()));
    }
    let signer_certificate = certs.remove(0);
    Ok(LongTermMaterial {
        signer_certificate,
        key_info_chain: certs,
        signature_value_c14n: signature_value_c14n(sig, &scope, false)?.into_bytes(),
        held: held_values(sig, &scope)?.values,
    })
}

/// Adds `values` to the unsigned signature properties of the document's only signature, after
/// those it has. A signature without XAdES qualifying properties (an eSign signature: its
/// certificate is unknown before the ESP signs, so nothing was signed about it) gets a
/// `ds:Object` with `QualifyingProperties` holding only unsigned ones, targeting the signature
/// by its Id, which is added when missing.
pub fn add_long_term_values(xml_bytes: &[u8], values: &LongTermValues) -> Result<Vec<u8>> {
    let bom = if xml_bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let text = xml::as_text(xml_bytes)?;
    let doc = xml::parse(text)?;
    let (sig, pscope) = only_signature(&doc)?;
    let scope = xml::extend_scope(&pscope, sig);
    let mut edits = Vec::new();
    let sig_id = match sig.attr("Id") {
        Some(id) => id.to_string(),
        None => {
            let id = format!("sig-{}", random_id()?);
            let at = sig.start + 1 + sig.name.len();
            edits.push(Edit { from: at, to: at, text: format!(" Id=\"{id}\"") });
            id
        }
    };
    let properties = properties_xml(values);
    let xades = format!("xmlns:xades=\"{XADES_NS}\"");
    let held = held_values(sig, &scope)?;
    edits.push(match held.place {
        Place::SignatureProperties(el) => insert_into(el, &properties),
        Place::UnsignedProperties(el) => insert_into(
            el,
            &format!("<xades:UnsignedSignatureProperties {xades}>{properties}</xades:UnsignedSignatureProperties>"),
        ),
        Place::QualifyingProperties(el) => insert_into(
            el,
            &format!(
                "<xades:UnsignedProperties {xades}><xades:UnsignedSignatureProperties>{properties}\
</xades:UnsignedSignatureProperties></xades:UnsignedProperties>"
            ),
        ),
        Place::Nowhere => insert_into(
            sig,
            &format!(
                "<ds:Object xmlns:ds=\"{DSIG_NS}\"><xades:QualifyingProperties {xades} Target=\"#{sig_id}\">\
<xades:UnsignedProperties><xades:UnsignedSignatureProperties>{properties}</xades:UnsignedSignatureProperties>\
</xades:UnsignedProperties></xades:QualifyingProperties></ds:Object>"
            ),
        ),
    });
    let mut out = text.to_string();
    edits.sort_by_key(|e| std::cmp::Reverse(e.from));
    for edit in edits {
        out.replace_range(edit.from..edit.to, &edit.text);
    }
    let mut bytes = Vec::with_capacity(out.len() + bom);
    bytes.extend_from_slice(&xml_bytes[..bom]);
    bytes.extend_from_slice(out.as_bytes());
    Ok(bytes)
}

/// A replacement of the text between two offsets.
struct Edit {
    from: usize,
    to: usize,
    text: String,
}

/// Puts `content` at the end of `el`'s content (an empty `<x/>` becomes `<x>content</x>`).
fn insert_into(el: &Element, content: &str) -> Edit {
    if el.empty {
        Edit { from: el.end_tag_start, to: el.end, text: format!(">{content}</{}>", el.name) }
    } else {
        Edit { from: el.end_tag_start, to: el.end_tag_start, text: content.to_string() }
    }
}

/// The properties in the order EN 319 132-1 incorporates them: the time-stamp first, then the
/// values that validate the signature and the time-stamp. Each declares its namespaces, as it
/// may land in a QualifyingProperties written with other prefixes.
fn properties_xml(values: &LongTermValues) -> String {
    let xades = format!("xmlns:xades=\"{XADES_NS}\"");
    let encapsulated = |tag: &str, items: &[Vec<u8>]| -> String {
        items.iter().map(|item| format!("<xades:{tag}>{}</xades:{tag}>", B64.encode(item))).collect()
    };
    let mut s = String::new();
    for token in &values.signature_timestamps {
        s.push_str(&format!(
            "<xades:SignatureTimeStamp {xades}><ds:CanonicalizationMethod xmlns:ds=\"{DSIG_NS}\" Algorithm=\"{EXC_C14N}\"/>\
<xades:EncapsulatedTimeStamp>{}</xades:EncapsulatedTimeStamp></xades:SignatureTimeStamp>",
            B64.encode(token)
        ));
    }
    if !values.certificates.is_empty() {
        let certs = encapsulated("EncapsulatedX509Certificate", &values.certificates);
        s.push_str(&format!("<xades:CertificateValues {xades}>{certs}</xades:CertificateValues>"));
    }
    if !values.crls.is_empty() || !values.ocsps.is_empty() {
        s.push_str(&format!("<xades:RevocationValues {xades}>"));
        if !values.crls.is_empty() {
            s.push_str(&format!(
                "<xades:CRLValues>{}</xades:CRLValues>",
                encapsulated("EncapsulatedCRLValue", &values.crls)
            ));
        }
        if !values.ocsps.is_empty() {
            let ocsps = encapsulated("EncapsulatedOCSPValue", &values.ocsps);
            s.push_str(&format!("<xades:OCSPValues>{ocsps}</xades:OCSPValues>"));
        }
        s.push_str("</xades:RevocationValues>");
    }
    s
}

fn only_signature(doc: &xml::Document) -> Result<(&Element, NsScope)> {
    let mut sigs = signatures_of(doc)?;
    if sigs.len() != 1 {
        return Err(Error::Xml(format!("the document has {} signatures; one is extended at a time", sigs.len())));
    }
    sigs.pop().ok_or_else(|| Error::Xml("no ds:Signature element in the document".into()))
}

/// `ds:SignatureValue` canonicalised as a signature time-stamp covers it.
fn signature_value_c14n(sig: &Element, scope: &NsScope, with_comments: bool) -> Result<String> {
    let value = ds_child(sig, scope, "SignatureValue").ok_or_else(|| Error::Xml("SignatureValue missing".into()))?;
    xml::c14n_subtree(value, scope, C14n::exclusive(with_comments))
}

/// The deepest existing element of the unsigned-properties path, where additions go.
enum Place<'a> {
    SignatureProperties(&'a Element),
    UnsignedProperties(&'a Element),
    QualifyingProperties(&'a Element),
    Nowhere,
}

struct Held<'a> {
    place: Place<'a>,
    values: LongTermValues,
    /// Each SignatureTimeStamp's canonicalisation (`true`: with comments) and token.
    timestamps: Vec<(bool, Vec<u8>)>,
}

/// The children of `el` (whose in-scope namespaces are `scope`) named `{ns}local`, each with
/// its own in-scope namespaces.
fn children_named<'a>(el: &'a Element, scope: &NsScope, ns: &str, local: &str) -> Vec<(&'a Element, NsScope)> {
    el.child_elements()
        .map(|c| (c, xml::extend_scope(scope, c)))
        .filter(|(c, s)| c.local_name() == local && xml::element_ns(c, s) == ns)
        .collect()
}

fn first_named<'a>(el: &'a Element, scope: &NsScope, ns: &str, local: &str) -> Option<(&'a Element, NsScope)> {
    children_named(el, scope, ns, local).into_iter().next()
}

/// The signature's QualifyingProperties: the one targeting its Id, or, for a signature without
/// an Id, the only one.
fn qualifying_properties<'a>(sig: &'a Element, scope: &NsScope) -> Option<(&'a Element, NsScope)> {
    let mut found = Vec::new();
    for (object, object_scope) in children_named(sig, scope, DSIG_NS, "Object") {
        found.extend(children_named(object, &object_scope, XADES_NS, "QualifyingProperties"));
    }
    match sig.attr("Id") {
        Some(id) => {
            let target = format!("#{id}");
            found.into_iter().find(|(qp, _)| qp.attr("Target") == Some(target.as_str()))
        }
        None if found.len() == 1 => found.pop(),
        None => None,
    }
}

fn held_values<'a>(sig: &'a Element, scope: &NsScope) -> Result<Held<'a>> {
    let mut held = Held { place: Place::Nowhere, values: LongTermValues::default(), timestamps: Vec::new() };
    let Some((qp, qp_scope)) = qualifying_properties(sig, scope) else { return Ok(held) };
    held.place = Place::QualifyingProperties(qp);
    let Some((up, up_scope)) = first_named(qp, &qp_scope, XADES_NS, "UnsignedProperties") else { return Ok(held) };
    held.place = Place::UnsignedProperties(up);
    let Some((usp, usp_scope)) = first_named(up, &up_scope, XADES_NS, "UnsignedSignatureProperties") else {
        return Ok(held);
    };
    held.place = Place::SignatureProperties(usp);
    for (ts, ts_scope) in children_named(usp, &usp_scope, XADES_NS, "SignatureTimeStamp") {
        let with_comments = match ds_child(ts, &ts_scope, "CanonicalizationMethod").and_then(|c| c.attr("Algorithm")) {
            Some(EXC_C14N) => false,
            Some(EXC_C14N_COMMENTS) => true,
            other => {
                return Err(Error::Xml(format!(
                    "a signature time-stamp canonicalised with {} is not supported (exclusive C14N is)",
                    other.unwrap_or("inclusive C14N 1.0 (the default)")
                )));
            }
        };
        for (token, _) in children_named(ts, &ts_scope, XADES_NS, "EncapsulatedTimeStamp") {
            let der = b64_decode(&token.text())?;
            held.values.signature_timestamps.push(der.clone());
            held.timestamps.push((with_comments, der));
        }
    }
    for (values, values_scope) in children_named(usp, &usp_scope, XADES_NS, "CertificateValues") {
        held.values.certificates.extend(encapsulated(values, &values_scope, "EncapsulatedX509Certificate")?);
    }
    for (revocation, rev_scope) in children_named(usp, &usp_scope, XADES_NS, "RevocationValues") {
        for (crls, crls_scope) in children_named(revocation, &rev_scope, XADES_NS, "CRLValues") {
            held.values.crls.extend(encapsulated(crls, &crls_scope, "EncapsulatedCRLValue")?);
        }
        for (ocsps, ocsps_scope) in children_named(revocation, &rev_scope, XADES_NS, "OCSPValues") {
            held.values.ocsps.extend(encapsulated(ocsps, &ocsps_scope, "EncapsulatedOCSPValue")?);
        }
    }
    Ok(held)
}

fn encapsulated(el: &Element, scope: &NsScope, local: &str) -> Result<Vec<Vec<u8>>> {
    children_named(el, scope, XADES_NS, local).iter().map(|(c, _)| b64_decode(&c.text())).collect()
}

/// What verification learns from a signature's long-term properties.
pub(super) struct LongTermCheck {
    pub values: LongTermValues,
    /// The first signature time-stamp's report.
    pub timestamp: Option<TimestampReport>,
    /// That time-stamp's time, when it is intact.
    pub timestamp_time: Option<u64>,
}

/// Reads the long-term properties and checks the first signature time-stamp: its imprint over
/// the canonical SignatureValue, its TSA's path (with `pool` and the certificate values) at
/// `checked_at` (`None`: the token's time).
pub(super) fn check_long_term(
    sig: &Element,
    scope: &NsScope,
    pool: &[Vec<u8>],
    trust: &TrustStore,
    checked_at: Option<u64>,
) -> Result<LongTermCheck> {
    let held = held_values(sig, scope)?;
    let mut check = LongTermCheck { values: held.values, timestamp: None, timestamp_time: None };
    if let Some((with_comments, token)) = held.timestamps.first() {
        let covered = signature_value_c14n(sig, scope, *with_comments)?;
        let mut tsa_pool = pool.to_vec();
        tsa_pool.extend(check.values.certificates.iter().cloned());
        let (report, time) = token_report(token, covered.as_bytes(), &tsa_pool, trust, checked_at);
        (check.timestamp, check.timestamp_time) = (Some(report), time);
    }
    Ok(check)
}
