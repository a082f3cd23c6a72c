//! Sealing what the signer approved with the platform's document-sealing certificate: a PAdES
//! signature on the PDF (B-T when a TSA is configured), or a CMS per document hash; and making
//! signatures long-term (PAdES or XAdES B-LT) when a TSA is configured.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use signet_gateway::{DocumentDetail, HashSignature, PageSelection, PdfOptions, SignaturePosition};
use signet_signing::{
    BoxSpec, CmsExtendOptions, DataSignOptions, HttpConfig, NameStyle, PadesLevel, PdfSignOptions, Position, RawSigner,
    Visible, Zone,
};

/// Why a seal (or a signature's options) could not be made: the PDF library's or the signing
/// facade's own error, kept whole. Each displays as before, so the transaction's stored error
/// message and the signer's page read the same.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    /// The document cannot be read, or a named position is not one.
    #[error(transparent)]
    Pdf(#[from] signet_pdf::Error),
    /// Signing failed (the key, the time-stamp, a document hash that is not SHA-256 hex).
    #[error(transparent)]
    Sign(#[from] signet_signing::Error),
}

/// What the signer put on the document.
#[derive(Debug, Clone)]
pub enum Mark {
    Typed { name: String, style: NameStyle },
    Image(Vec<u8>),
}

/// Where outbound fetches may go and which TSA to use.
#[derive(Debug, Clone, Default)]
pub struct SealPolicy {
    pub tsa_url: Option<String>,
    pub http: HttpConfig,
    /// What validates the platform CA's sealing certificates long-term (its CRL), for B-LT.
    pub validation: signet_signing::ValidationData,
    /// The organisation's zone, in which the appearance's date is written.
    pub zone: Zone,
}

/// The ETSI baseline level a gateway signature reached, as the transaction's status tells the
/// integrator: B-LT when a TSA is configured and every CA answered, B-T when a CA did not,
/// B-B without a TSA.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    Pades(PadesLevel),
    /// A PDF signature whose CMS is not PAdES baseline, labelled `adbe.pkcs7.detached` (an
    /// Aadhaar eSign ESP's CMS: `signingTime`, no `signing-certificate-v2`), at the level its
    /// time-stamp and validation data reach. Calling it PAdES would claim what it is not.
    PdfCms(PadesLevel),
    Cades(PadesLevel),
    /// An XML signature with XAdES properties (signed ones, or only the unsigned long-term ones).
    Xades(PadesLevel),
    /// A plain XML-DSig: no qualifying properties, no time-stamp.
    XmlDsig,
}

impl Reached {
    /// "PAdES-B-LT", "PKCS7-LT", "CAdES-B-T", "XAdES-B-LT", "XML-DSig". A PDF CMS signature
    /// is named as the EU's DSS validator names it (`PKCS7-B`, `-T`, `-LT`, `-LTA`): ETSI names
    /// baseline levels only for PAdES/CAdES/XAdES, and "B-" would say baseline.
    pub fn label(self) -> String {
        match self {
            Reached::Pades(level) => format!("PAdES-{}", level.as_str()),
            Reached::PdfCms(level) => format!("PKCS7-{}", pkcs7_level(level)),
            Reached::Cades(level) => format!("CAdES-{}", level.as_str()),
            Reached::Xades(level) => format!("XAdES-{}", level.as_str()),
            Reached::XmlDsig => "XML-DSig".into(),
        }
    }

    /// What a PDF signature is when its `/SubFilter` is `adbe.pkcs7.detached` (`pkcs7_label`):
    /// the level [`long_term`] reached, under the PDF CMS name.
    pub fn in_pdf_labelled(self, pkcs7_label: bool) -> Reached {
        match self {
            Reached::Pades(level) if pkcs7_label => Reached::PdfCms(level),
            other => other,
        }
    }

    /// The level of a result of several CMS signatures: that of the least long-term one.
    pub fn weakest_cades(levels: impl IntoIterator<Item = Reached>) -> Reached {
        let level = levels
            .into_iter()
            .filter_map(|reached| match reached {
                Reached::Cades(level) => Some(level),
                _ => None,
            })
            .min()
            .unwrap_or(PadesLevel::BB);
        Reached::Cades(level)
    }
}

/// The level part of a PDF CMS label: the baseline level without its "B-".
fn pkcs7_level(level: PadesLevel) -> &'static str {
    match level {
        PadesLevel::BB => "B",
        PadesLevel::BT => "T",
        PadesLevel::BLT => "LT",
        PadesLevel::BLTA => "LTA",
    }
}

fn box_spec(position: &SignaturePosition) -> Result<BoxSpec, SealError> {
    match position {
        SignaturePosition::Customize(rect) => {
            Ok(BoxSpec::Custom { left: rect.left, top: rect.top, width: rect.width, height: rect.height })
        }
        named => Ok(Position::parse(named.param()).map(BoxSpec::Named)?),
    }
}

fn visible(options: &PdfOptions, mark: Mark, zone: Zone) -> Result<Visible, SealError> {
    let rect = box_spec(&options.position)?;
    let (pages, page_boxes) = match &options.pages {
        PageSelection::All => (signet_signing::PageSelection::All, None),
        PageSelection::First => (signet_signing::PageSelection::First, None),
        PageSelection::Last => (signet_signing::PageSelection::Last, None),
        PageSelection::Even => (signet_signing::PageSelection::Even, None),
        PageSelection::Odd => (signet_signing::PageSelection::Odd, None),
        PageSelection::Specify(list) => (signet_signing::PageSelection::List(list.clone()), None),
        PageSelection::PageLevel(boxes) => {
            let boxes = boxes
                .iter()
                .map(|b| {
                    let r = b.rect;
                    (b.page, BoxSpec::Custom { left: r.left, top: r.top, width: r.width, height: r.height })
                })
                .collect();
            (signet_signing::PageSelection::First, Some(boxes))
        }
    };
    let (typed_name, name_style, image) = match mark {
        Mark::Typed { name, style } => (Some(name), style, None),
        Mark::Image(bytes) => (None, NameStyle::Plain, Some(bytes)),
    };
    Ok(Visible { pages, rect, page_boxes, typed_name, name_style, image, show_details: true, marks: Vec::new(), zone })
}

/// The reason a signature states. The integrator's `Reason` is the signer's declaration and
/// is labelled so: the seal belongs to the tenant, and the words are not the platform's.
fn reason(options: &PdfOptions) -> String {
    match &options.reason {
        Some(declared) => format!("Signer's declaration: {declared}"),
        None => "Signed electronically through Signet".into(),
    }
}

/// Seals a PDF; earlier signatures stay valid (incremental update). The final signature
/// (`IsCosign` false) on an unsigned document is a certification, so later changes show up.
pub fn seal_pdf(
    pdf: &[u8],
    options: &PdfOptions,
    mark: Mark,
    signer: &dyn RawSigner,
    policy: &SealPolicy,
) -> Result<(Vec<u8>, Reached), SealError> {
    let already_signed = signet_pdf::inspect(pdf)?.signatures > 0;
    let opts = PdfSignOptions {
        level: if policy.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: policy.tsa_url.clone(),
        http: policy.http.clone(),
        visible: Some(visible(options, mark, policy.zone)?),
        name: Some(options.name.clone()),
        reason: Some(reason(options)),
        certify: !options.is_cosign && !already_signed,
        ..PdfSignOptions::default()
    };
    Ok(long_term(signet_signing::sign_pdf(pdf, signer, &opts)?, policy))
}

/// With a TSA, a signed PDF is made long-term at once (B-LT: the chains and revocation data
/// of its signatures inside it), so that it validates after its certificates expire. A CA or
/// TSA that does not answer leaves it at B-T, as the verifier then reports, rather than fail
/// the integrator's transaction: the document is already returned, there is no later copy.
pub fn long_term(signed: Vec<u8>, policy: &SealPolicy) -> (Vec<u8>, Reached) {
    if policy.tsa_url.is_none() {
        return (signed, Reached::Pades(PadesLevel::BB));
    }
    let opts = PdfSignOptions {
        level: PadesLevel::BLT,
        tsa_url: policy.tsa_url.clone(),
        http: policy.http.clone(),
        validation: policy.validation.clone(),
        ..PdfSignOptions::default()
    };
    match signet_signing::extend_pdf(&signed, &opts) {
        Ok(extended) => (extended, Reached::Pades(PadesLevel::BLT)),
        Err(error) => {
            tracing::warn!(%error, "the signed PDF stays at PAdES B-T: its validation data could not be had");
            (signed, Reached::Pades(PadesLevel::BT))
        }
    }
}

/// With a TSA, a CMS (a hash or data signature) is made long-term at once: CAdES B-LT, its
/// time-stamp and the chains and revocation data of its signer and TSA inside it, as
/// [`long_term`] does for PDFs. A CA that does not answer leaves it time-stamped (B-T), a TSA
/// that does not answer as it was, with a warning: the integrator's transaction is not failed.
pub fn long_term_cms(cms: Vec<u8>, policy: &SealPolicy) -> (Vec<u8>, Reached) {
    let Some(tsa_url) = policy.tsa_url.clone() else {
        return (cms, Reached::Cades(PadesLevel::BB));
    };
    let opts = CmsExtendOptions {
        tsa_url: Some(tsa_url.clone()),
        http: policy.http.clone(),
        validation: policy.validation.clone(),
    };
    match signet_signing::extend_cms(&cms, &opts) {
        Ok(extended) => (extended, Reached::Cades(PadesLevel::BLT)),
        Err(error) => {
            tracing::warn!(%error, "the CMS stays short of CAdES B-LT: its validation data could not be had");
            let stamp = DataSignOptions { detached: true, tsa_url: Some(tsa_url), http: policy.http.clone() };
            match signet_signing::timestamp_cms(&cms, &stamp) {
                Ok(stamped) => (stamped, Reached::Cades(PadesLevel::BT)),
                Err(_) => (cms, Reached::Cades(PadesLevel::BB)),
            }
        }
    }
}

/// [`long_term`] for a signed XML document: with a TSA, its signature becomes XAdES B-LT (a
/// signature time-stamp, the chains and revocation values of the signer and the TSA in its
/// unsigned properties), so that it validates after its certificates expire (an eSign
/// certificate lives 30 minutes). A CA that does not answer leaves it time-stamped (B-T), a
/// TSA that does not answer as it was (`signed_level`), with a warning, as for a PDF.
pub fn long_term_xml(signed: Vec<u8>, policy: &SealPolicy, signed_level: Reached) -> (Vec<u8>, Reached) {
    if policy.tsa_url.is_none() {
        return (signed, signed_level);
    }
    let opts = signet_signing::XmlExtendOptions {
        tsa_url: policy.tsa_url.clone(),
        http: policy.http.clone(),
        validation: policy.validation.clone(),
    };
    match signet_signing::extend_xml(&signed, &opts) {
        Ok(extended) => (extended, Reached::Xades(PadesLevel::BLT)),
        Err(error) => {
            tracing::warn!(%error, "the signed XML stays short of XAdES B-LT: its validation data could not be had");
            match signet_signing::timestamp_xml(&signed, &opts) {
                Ok(stamped) => (stamped, Reached::Xades(PadesLevel::BT)),
                Err(_) => (signed, signed_level),
            }
        }
    }
}

/// The options of an Aadhaar eSign signature on a PDF: the same appearance as a seal, naming
/// the signer the request names (the ESP's certificate is not known before it signs), and
/// long-term validation data when a TSA is configured, since eSign certificates live 30
/// minutes: B-LT, the signer's chain and revocation data in the document.
pub fn esign_pdf_options(pdf: &[u8], options: &PdfOptions, policy: &SealPolicy) -> Result<PdfSignOptions, SealError> {
    let already_signed = signet_pdf::inspect(pdf)?.signatures > 0;
    let mark = Mark::Typed { name: options.name.clone(), style: NameStyle::Plain };
    Ok(PdfSignOptions {
        visible: Some(visible(options, mark, policy.zone)?),
        name: Some(options.name.clone()),
        reason: Some(reason(options)),
        certify: !options.is_cosign && !already_signed,
        ..esign_completion_options(policy)
    })
}

/// The options of a signature with the signer's own token: the request's appearance with
/// `mark` (the certificate holder's name), certification as for a seal; the level is applied
/// when the signature comes back.
pub fn token_pdf_options(
    pdf: &[u8],
    options: &PdfOptions,
    policy: &SealPolicy,
    mark: Mark,
) -> Result<PdfSignOptions, SealError> {
    let already_signed = signet_pdf::inspect(pdf)?.signatures > 0;
    Ok(PdfSignOptions {
        visible: Some(visible(options, mark, policy.zone)?),
        reason: Some(reason(options)),
        certify: !options.is_cosign && !already_signed,
        // The placeholder leaves room for the time-stamp added when the signature comes back.
        level: if policy.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: policy.tsa_url.clone(),
        http: policy.http.clone(),
        ..PdfSignOptions::default()
    })
}

/// What completing an eSign signature needs (the appearance is in the prepared document):
/// B-T with a TSA, made long-term after ([`long_term`]).
pub fn esign_completion_options(policy: &SealPolicy) -> PdfSignOptions {
    PdfSignOptions {
        // Time-stamped at once; the validation data follows (`long_term`), so that a CA that
        // does not answer leaves the signature at B-T instead of losing it.
        level: if policy.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: policy.tsa_url.clone(),
        http: policy.http.clone(),
        ..PdfSignOptions::default()
    }
}

/// One detached CMS per document hash, in request order, and the level the weakest reached.
pub fn seal_hashes(
    details: &[DocumentDetail],
    signer: &dyn RawSigner,
    policy: &SealPolicy,
) -> Result<(Vec<HashSignature>, Reached), SealError> {
    // The time-stamp comes with the long-term data (`long_term_cms`).
    let opts = DataSignOptions { detached: true, tsa_url: None, http: policy.http.clone() };
    let mut signatures = Vec::with_capacity(details.len());
    let mut levels = Vec::with_capacity(details.len());
    for detail in details {
        let digest = signet_signing::parse_sha256(&detail.hash_hex)?;
        let (cms, reached) = long_term_cms(signet_signing::sign_hash(&digest, signer, &opts)?, policy);
        levels.push(reached);
        signatures.push(HashSignature {
            document_name: detail.name.clone(),
            document_hash: detail.hash_hex.clone(),
            signature: STANDARD.encode(cms),
        });
    }
    Ok((signatures, Reached::weakest_cades(levels)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdf_labelled_pkcs7_is_named_as_a_pdf_cms_signature_not_pades() {
        let lt = Reached::Pades(PadesLevel::BLT);
        assert_eq!(lt.in_pdf_labelled(false).label(), "PAdES-B-LT");
        assert_eq!(lt.in_pdf_labelled(true).label(), "PKCS7-LT");
        assert_eq!(Reached::Pades(PadesLevel::BB).in_pdf_labelled(true).label(), "PKCS7-B");
        assert_eq!(Reached::Pades(PadesLevel::BT).in_pdf_labelled(true).label(), "PKCS7-T");
        // Only a PDF signature is relabelled.
        assert_eq!(Reached::Cades(PadesLevel::BLT).in_pdf_labelled(true).label(), "CAdES-B-LT");
    }
}
