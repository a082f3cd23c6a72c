//! PAdES baseline signatures: B-B (CMS with signingCertificateV2), B-T (+ signature
//! time-stamp), B-LT (+ DSS with chains and OCSP/CRL for the signer and the TSA), B-LTA
//! (+ document time-stamp). Each level is one more incremental update; earlier bytes and
//! earlier signatures are never touched.

use std::path::Path;
use std::str::FromStr;
use std::time::SystemTime;

use signet_locale::Zone;
use signet_pdf::{
    Appearance, BoxSpec, DssData, FieldMark, NameStyle, PageSelection, Position, SignOptions, SignatureKind,
    WidgetPlacement,
};
use signet_sigcrypto::HttpConfig;
use signet_sigcrypto::cms::{self, CmsOptions, SignedAttrs};
use signet_sigcrypto::long_term::CarriedValidation;
use signet_sigcrypto::signer::RawSigner;
use signet_sigcrypto::{pki, revocation, tsp};

use crate::error::{Error, Result};
use crate::validation_data::merge_unique;

/// Room left for a signature time-stamp token (TSA certificate chain included). Real tokens
/// are 3-6 KB; a token that does not fit triggers one retry with the exact size.
const TIMESTAMP_ALLOWANCE: usize = 10_000;
/// Slack on top of the arithmetic estimate (DER length bytes, a longer ECDSA signature).
const SLACK: usize = 64;
/// What a remote provider may return beyond our estimate (full chains, revocation archival).
const EXTERNAL_CMS_ALLOWANCE: usize = 16_384;
/// Files at least this large are signed without loading them (see [`sign_pdf_file`]).
const STREAMING_THRESHOLD: u64 = 8 << 20;

/// PAdES baseline level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
pub enum PadesLevel {
    #[default]
    #[serde(rename = "B-B")]
    BB,
    #[serde(rename = "B-T")]
    BT,
    #[serde(rename = "B-LT")]
    BLT,
    #[serde(rename = "B-LTA")]
    BLTA,
}

impl PadesLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            PadesLevel::BB => "B-B",
            PadesLevel::BT => "B-T",
            PadesLevel::BLT => "B-LT",
            PadesLevel::BLTA => "B-LTA",
        }
    }
}

impl FromStr for PadesLevel {
    type Err = Error;
    /// `b-b`, `B-T`, `blt`, `b_lta` ... (case and separators ignored).
    fn from_str(s: &str) -> Result<Self> {
        let key: String = s.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
        match key.as_str() {
            "bb" => Ok(PadesLevel::BB),
            "bt" => Ok(PadesLevel::BT),
            "blt" => Ok(PadesLevel::BLT),
            "blta" => Ok(PadesLevel::BLTA),
            _ => Err(Error::InvalidOptions(format!("unknown PAdES level {s:?} (b-b, b-t, b-lt, b-lta)"))),
        }
    }
}

/// A visible signature: where the boxes go and what they show.
#[derive(Debug, Clone, PartialEq)]
pub struct Visible {
    /// Pages that get the box (ignored when `page_boxes` is set).
    pub pages: PageSelection,
    /// The box on each selected page.
    pub rect: BoxSpec,
    /// Explicit (1-based page, box) pairs: the gateway's page-level coordinates.
    pub page_boxes: Option<Vec<(u32, BoxSpec)>>,
    /// Typed name drawn large; the signer's common name when `None`.
    pub typed_name: Option<String>,
    pub name_style: NameStyle,
    /// PNG (transparency kept) or JPEG.
    pub image: Option<Vec<u8>>,
    /// The text block: signed by, date, reason, location.
    pub show_details: bool,
    /// Boxes filled in with the signature (initials, date, text, checkbox).
    pub marks: Vec<FieldMark>,
    /// The zone the text block's date is written in (the organisation's; India by default).
    pub zone: Zone,
}

impl Default for Visible {
    fn default() -> Self {
        Visible {
            pages: PageSelection::First,
            rect: BoxSpec::Named(Position::BottomRight),
            page_boxes: None,
            typed_name: None,
            name_style: NameStyle::Plain,
            image: None,
            show_details: true,
            marks: Vec::new(),
            zone: Zone::default(),
        }
    }
}

/// Validation material supplied by the caller (for B-LT when AIA/CRL-DP cannot be fetched).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ValidationData {
    pub certs: Vec<Vec<u8>>,
    pub ocsps: Vec<Vec<u8>>,
    pub crls: Vec<Vec<u8>>,
}

impl ValidationData {
    fn is_empty(&self) -> bool {
        self.certs.is_empty() && self.ocsps.is_empty() && self.crls.is_empty()
    }
}

/// How to sign a PDF.
#[derive(Debug, Clone, Default)]
pub struct PdfSignOptions {
    pub level: PadesLevel,
    /// RFC 3161 TSA for B-T and above.
    pub tsa_url: Option<String>,
    /// Limits and address policy for TSA / OCSP / CRL / caIssuers fetches.
    pub http: HttpConfig,
    /// `None` = invisible signature.
    pub visible: Option<Visible>,
    /// `/Name` of the signature; the signer's common name when `None`.
    pub name: Option<String>,
    pub reason: Option<String>,
    pub location: Option<String>,
    pub contact_info: Option<String>,
    /// Certification signature (DocMDP P=2) instead of an approval signature.
    pub certify: bool,
    /// Sign this field (an existing empty signature field, or the name of the new one).
    pub field_name: Option<String>,
    /// `/M`; now when `None`.
    pub signing_time: Option<SystemTime>,
    /// Reserve exactly this many bytes for the CMS instead of the estimate.
    pub contents_size: Option<usize>,
    /// Extra certificates / OCSP responses / CRLs for the DSS.
    pub validation: ValidationData,
    /// `/SubFilter`: `ETSI.CAdES.detached` for what Signet signs itself; a remote provider's
    /// CMS that is not PAdES baseline is `adbe.pkcs7.detached` (see [`is_pades_baseline`]).
    pub sub_filter: signet_pdf::SubFilter,
}

impl PdfSignOptions {
    fn check(&self) -> Result<()> {
        if self.level >= PadesLevel::BT && self.tsa_url.as_deref().is_none_or(str::is_empty) {
            return Err(Error::InvalidOptions(format!("PAdES {} needs a TSA URL", self.level.as_str())));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// One-shot signing
// ---------------------------------------------------------------------------------------------

/// Sign a PDF held in memory at the requested PAdES level.
pub fn sign_pdf(input: &[u8], signer: &dyn RawSigner, opts: &PdfSignOptions) -> Result<Vec<u8>> {
    opts.check()?;
    let mut reserve = placeholder_size(signer.certificate_der(), signer.chain_der(), opts)?;
    for _ in 0..2 {
        let pdf_opts = pdf_options(signer.certificate_der(), opts, reserve);
        let mut prepared = signet_pdf::prepare(input, &pdf_opts)?;
        let cms = signature_cms(&prepared.digest, signer, opts)?;
        if cms.len() > prepared.capacity() {
            // Only a time-stamp token larger than the allowance gets here: redo with its size.
            reserve = cms.len() + SLACK;
            continue;
        }
        signet_pdf::embed_into(&mut prepared.bytes, &prepared.byte_range, Some(&prepared.digest), &cms)?;
        return extend_signed(prepared.bytes, &cms, &prepared.digest, opts);
    }
    Err(Error::InvalidOptions("the signature did not fit the reserved space twice".into()))
}

/// Sign `input` into `output`. Large files are streamed: the input is copied by the kernel
/// while it is hashed, and only the objects the signature touches are parsed, so memory stays
/// small whatever the size. B-LT/B-LTA then load the signed file once to add their increments
/// (signet-pdf has no file-based DSS update yet).
pub fn sign_pdf_file(input: &Path, output: &Path, signer: &dyn RawSigner, opts: &PdfSignOptions) -> Result<()> {
    opts.check()?;
    // prepare_file copies the input onto the output: the same file would be truncated first.
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize())
        && a == b
    {
        return Err(Error::InvalidOptions("the output file is the input file".into()));
    }
    let size = std::fs::metadata(input)?.len();
    if size < STREAMING_THRESHOLD {
        let bytes = std::fs::read(input)?;
        let signed = sign_pdf(&bytes, signer, opts)?;
        // A plain write: small files are rewritten whole, and tmp + rename doubled the
        // metadata work per document in batch signing.
        std::fs::write(output, &signed)?;
        return Ok(());
    }
    let mut reserve = placeholder_size(signer.certificate_der(), signer.chain_der(), opts)?;
    for _ in 0..2 {
        let pdf_opts = pdf_options(signer.certificate_der(), opts, reserve);
        let prepared = signet_pdf::prepare_file(input, output, &pdf_opts)?;
        let cms = signature_cms(&prepared.digest, signer, opts)?;
        let capacity = ((prepared.byte_range[2] - prepared.byte_range[1]).saturating_sub(2) / 2) as usize;
        if cms.len() > capacity {
            reserve = cms.len() + SLACK;
            continue;
        }
        patch_contents(output, &prepared.byte_range, &cms)?;
        if opts.level >= PadesLevel::BLT {
            // The pdf crate has no file-based DSS update yet: load the signed file once.
            let signed = std::fs::read(output)?;
            let extended = extend_signed(signed, &cms, &prepared.digest, opts)?;
            write_atomically(output, &extended)?;
        }
        return Ok(());
    }
    Err(Error::InvalidOptions("the signature did not fit the reserved space twice".into()))
}

/// Write the CMS hex into the reserved `/Contents` gap of a prepared file.
///
/// `signet_pdf::embed_file` does the same but ends with an fsync; on a 100 MB file that
/// forces the whole copy to disk and doubles the wall time, so the batch and big-file path
/// patches in place and leaves durability to the caller (like `cp`).
fn patch_contents(path: &Path, byte_range: &[u64; 4], cms_der: &[u8]) -> Result<()> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    let mut delim = [0u8; 1];
    file.read_exact_at(&mut delim, byte_range[1])?;
    if delim[0] != b'<' || file.metadata()?.len() != byte_range[2] + byte_range[3] {
        return Err(Error::BadSignature("the prepared file does not match its ByteRange".into()));
    }
    let hex = hex::encode_upper(cms_der);
    file.write_all_at(hex.as_bytes(), byte_range[1] + 1)?;
    Ok(())
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("signet-tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// The B-B CMS over `digest`, plus the signature time-stamp for B-T and above.
fn signature_cms(digest: &[u8; 32], signer: &dyn RawSigner, opts: &PdfSignOptions) -> Result<Vec<u8>> {
    let attrs = cms::prepare_signed_attrs(digest, signer.certificate_der(), signer.chain_der(), &CmsOptions::pades())?;
    let signature = signer.sign(&attrs.der_to_sign)?;
    let cms = cms::assemble(&attrs, &signature)?;
    add_signature_timestamp(cms, opts)
}

fn add_signature_timestamp(cms: Vec<u8>, opts: &PdfSignOptions) -> Result<Vec<u8>> {
    match (&opts.tsa_url, opts.level >= PadesLevel::BT) {
        (Some(url), true) => Ok(tsp::add_signature_timestamp_with(&cms, url, &opts.http)?),
        _ => Ok(cms),
    }
}

/// Bytes to reserve for the CMS: the arithmetic estimate (no trial signature, pitfall P1)
/// plus room for a time-stamp token.
fn placeholder_size(cert_der: &[u8], chain_der: &[Vec<u8>], opts: &PdfSignOptions) -> Result<usize> {
    if let Some(n) = opts.contents_size {
        return Ok(n);
    }
    let mut size = estimated_cms_len(cert_der, chain_der)? + SLACK;
    if opts.level >= PadesLevel::BT {
        size += TIMESTAMP_ALLOWANCE;
    }
    Ok(size)
}

/// The CMS size estimate depends only on the certificates; batch signing asks for it once per
/// document with the same signer, and it costs two certificate parses and a trial assembly.
fn estimated_cms_len(cert_der: &[u8], chain_der: &[Vec<u8>]) -> Result<usize> {
    type Entry = (Vec<u8>, usize, usize);
    thread_local! {
        static CACHE: std::cell::RefCell<Vec<Entry>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let chain_len: usize = chain_der.iter().map(Vec::len).sum::<usize>() + chain_der.len();
    let hit = CACHE.with_borrow(|c| c.iter().find(|(cert, n, _)| cert == cert_der && *n == chain_len).map(|e| e.2));
    if let Some(len) = hit {
        return Ok(len);
    }
    let dummy = cms::prepare_signed_attrs(&[0u8; 32], cert_der, chain_der, &CmsOptions::pades())?;
    let len = cms::estimate_der_len(&dummy)?;
    CACHE.with_borrow_mut(|c| {
        if c.len() >= 8 {
            c.remove(0);
        }
        c.push((cert_der.to_vec(), chain_len, len));
    });
    Ok(len)
}

/// Map our options onto the pdf crate's.
fn pdf_options(cert_der: &[u8], opts: &PdfSignOptions, contents_size: usize) -> SignOptions {
    let common_name = pki::cert_common_name(cert_der);
    let name = opts.name.clone().or_else(|| common_name.clone());
    let appearance = opts.visible.as_ref().map(|v| {
        let placement = match &v.page_boxes {
            Some(boxes) => WidgetPlacement::PageBoxes(boxes.clone()),
            None => WidgetPlacement::Pages { pages: v.pages.clone(), rect: v.rect },
        };
        let mut app = Appearance::new(placement);
        app.image = v.image.clone();
        app.typed_name = v.typed_name.clone().or_else(|| name.clone());
        app.name_style = v.name_style;
        app.show_details = v.show_details;
        app.marks = v.marks.clone();
        app.zone = v.zone;
        app
    });
    SignOptions {
        kind: if opts.certify { SignatureKind::Certification } else { SignatureKind::Approval },
        sub_filter: opts.sub_filter,
        contents_size,
        field_name: opts.field_name.clone(),
        name,
        reason: opts.reason.clone(),
        location: opts.location.clone(),
        contact_info: opts.contact_info.clone(),
        signing_time: opts.signing_time,
        appearance,
    }
}

// ---------------------------------------------------------------------------------------------
// B-LT and B-LTA
// ---------------------------------------------------------------------------------------------

/// Take a document whose last signature (`cms`, over `digest`) was just embedded up to the
/// requested level: DSS for B-LT, then a document time-stamp for B-LTA.
fn extend_signed(bytes: Vec<u8>, cms: &[u8], digest: &[u8; 32], opts: &PdfSignOptions) -> Result<Vec<u8>> {
    if opts.level < PadesLevel::BLT {
        return Ok(bytes);
    }
    let dss = validation_data(cms, digest, opts)?;
    let with_dss = signet_pdf::add_dss(&bytes, &dss)?;
    if opts.level < PadesLevel::BLTA {
        return Ok(with_dss);
    }
    add_document_timestamp(with_dss, opts)
}

/// Raise an already signed PDF to `opts.level` (B-LT or B-LTA): one DSS update with the
/// chains and revocation data of everything in it that signs (each signer, the TSA of each
/// signature time-stamp, the TSA of each document time-stamp), asking only about the
/// certificates the DSS (or `opts.validation`) does not answer for yet; then, for B-LTA, a
/// document time-stamp over it all. With nothing missing, B-LT returns the document as it
/// was. Revocation data that cannot be had is an [`Error::Ltv`] naming the certificates: a
/// caller retries later rather than keep a document that will not validate in ten years.
pub fn extend_pdf(input: &[u8], opts: &PdfSignOptions) -> Result<Vec<u8>> {
    opts.check()?;
    let sigs = signet_pdf::signatures(input)?;
    if sigs.is_empty() {
        return Err(Error::InvalidInput("the PDF has no signature to extend".into()));
    }
    let dss = document_validation_data(input, &sigs, opts)?;
    let adds_nothing = dss.certs.is_empty() && dss.ocsps.is_empty() && dss.crls.is_empty();
    let bytes = if adds_nothing { input.to_vec() } else { signet_pdf::add_dss(input, &dss)? };
    if opts.level < PadesLevel::BLTA {
        return Ok(bytes);
    }
    add_document_timestamp(bytes, opts)
}

/// What the document's DSS lacks for every signature and time-stamp in `sigs`.
fn document_validation_data(
    input: &[u8],
    sigs: &[signet_pdf::SignatureInfo],
    opts: &PdfSignOptions,
) -> Result<DssData> {
    let kept = signet_pdf::read_dss(input)?;
    let mut tokens = Vec::new();
    for sig in sigs {
        tokens.push(sig.contents.clone());
        if sig.sig_type != "DocTimeStamp" {
            tokens.extend(tsp::signature_timestamp_tokens(&sig.contents)?);
        }
    }
    let carried = CarriedValidation { certs: kept.certs, ocsps: kept.ocsps, crls: kept.crls };
    let lacking = crate::validation_data::lacking(&tokens, &carried, &opts.validation, &opts.http)?;
    Ok(DssData { certs: lacking.certs, ocsps: lacking.ocsps, crls: lacking.crls, vri_keys: Vec::new() })
}

/// Chains and revocation data for the signer (from the CMS) and every TSA whose token is in it.
fn validation_data(cms_der: &[u8], digest: &[u8; 32], opts: &PdfSignOptions) -> Result<DssData> {
    let summary = cms::check_external_cms(cms_der, digest)?;
    let mut chains = vec![revocation::complete_chain(&summary.cert_der, &summary.other_certs_der, &opts.http)?];
    let signature_values = cms::signature_values(cms_der)?;
    for (token, value) in tsp::signature_timestamp_tokens(cms_der)?.iter().zip(signature_values.iter()) {
        let info = tsp::check_token(token, &pki::sha256(value))?;
        let mut pool = info.other_certs_der.clone();
        pool.extend(summary.other_certs_der.iter().cloned());
        chains.push(revocation::complete_chain(&info.tsa_cert_der, &pool, &opts.http)?);
    }
    let mut dss = DssData::default();
    let mut missing = Vec::new();
    for chain in &chains {
        let data = revocation::collect_revocation_data(chain, &opts.http);
        merge_unique(&mut dss.certs, data.certs_der);
        merge_unique(&mut dss.ocsps, data.ocsps_der);
        merge_unique(&mut dss.crls, data.crls_der);
        missing.extend(data.missing);
    }
    if !missing.is_empty() && opts.validation.is_empty() {
        return Err(Error::Ltv(format!("no revocation data for {}", missing.join("; "))));
    }
    merge_unique(&mut dss.certs, opts.validation.certs.clone());
    merge_unique(&mut dss.ocsps, opts.validation.ocsps.clone());
    merge_unique(&mut dss.crls, opts.validation.crls.clone());
    Ok(dss)
}

/// Append a `/DocTimeStamp` signature whose `/Contents` is a TSA token over its ByteRange.
fn add_document_timestamp(bytes: Vec<u8>, opts: &PdfSignOptions) -> Result<Vec<u8>> {
    let url = opts.tsa_url.as_deref().ok_or_else(|| Error::InvalidOptions("B-LTA needs a TSA URL".into()))?;
    let mut reserve = TIMESTAMP_ALLOWANCE;
    for _ in 0..2 {
        let ts_opts = SignOptions { kind: SignatureKind::DocTimeStamp, contents_size: reserve, ..Default::default() };
        let mut prepared = signet_pdf::prepare(&bytes, &ts_opts)?;
        let token = tsp::timestamp_token_with(&prepared.digest, url, &opts.http)?;
        if token.len() > prepared.capacity() {
            reserve = token.len() + SLACK;
            continue;
        }
        signet_pdf::embed_into(&mut prepared.bytes, &prepared.byte_range, Some(&prepared.digest), &token)?;
        return Ok(prepared.bytes);
    }
    Err(Error::InvalidOptions("the document time-stamp did not fit the reserved space twice".into()))
}

// ---------------------------------------------------------------------------------------------
// Deferred (two-phase) signing
// ---------------------------------------------------------------------------------------------

/// Phase 1 of deferred signing. Persist it whole between the phases: the prepared bytes are
/// not reproducible (`/M`, object numbers).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PreparedPdf {
    /// The document with its empty signature placeholder.
    pub bytes: Vec<u8>,
    pub byte_range: [u64; 4],
    /// SHA-256 over the ByteRange: the CMS messageDigest.
    pub digest: [u8; 32],
    /// DER `SET OF` signed attributes: what a raw signer (token, HSM) signs.
    pub signed_attrs_der: Vec<u8>,
    /// SHA-256 of `signed_attrs_der`, for devices that sign a pre-computed hash.
    pub hash_to_sign: Vec<u8>,
    /// Everything needed to assemble the CMS from a raw signature.
    pub signed_attrs: SignedAttrs,
    /// Largest CMS (DER bytes) that fits.
    pub capacity: usize,
}

/// What comes back from the signing device or provider.
#[derive(Debug, Clone)]
pub enum SignatureOrCms {
    /// A raw signature over [`PreparedPdf::signed_attrs_der`] (PKCS#1 v1.5 or ECDSA DER).
    Signature(Vec<u8>),
    /// A whole detached CMS SignedData over [`PreparedPdf::digest`] (remote eSign provider).
    Cms(Vec<u8>),
}

/// Phase 1: add the signature field and placeholder for the signer with `cert_der` (and issuer
/// `chain_der`), and return the digest and signed attributes to sign. `opts.level` and the TSA
/// are applied in phase 2 by [`complete_pdf_with`].
pub fn prepare_pdf(input: &[u8], cert_der: &[u8], chain_der: &[Vec<u8>], opts: &PdfSignOptions) -> Result<PreparedPdf> {
    let reserve = match opts.contents_size {
        Some(n) => n,
        None => placeholder_size(cert_der, chain_der, opts)?.max(EXTERNAL_CMS_ALLOWANCE),
    };
    let prepared = signet_pdf::prepare(input, &pdf_options(cert_der, opts, reserve))?;
    let attrs = cms::prepare_signed_attrs(&prepared.digest, cert_der, chain_der, &CmsOptions::pades())?;
    Ok(PreparedPdf {
        capacity: prepared.capacity(),
        byte_range: prepared.byte_range,
        digest: prepared.digest,
        signed_attrs_der: attrs.der_to_sign.clone(),
        hash_to_sign: attrs.hash_to_sign.clone(),
        signed_attrs: attrs,
        bytes: prepared.bytes,
    })
}

/// Phase 2 (B-B): check what came back and embed it.
pub fn complete_pdf(prepared: &PreparedPdf, returned: SignatureOrCms) -> Result<Vec<u8>> {
    complete_pdf_with(prepared, returned, &PdfSignOptions::default())
}

/// Phase 2 at `opts.level`: a raw signature must verify against the signed attributes and the
/// certificate; a CMS must be well formed, sign exactly the prepared digest and fit.
pub fn complete_pdf_with(prepared: &PreparedPdf, returned: SignatureOrCms, opts: &PdfSignOptions) -> Result<Vec<u8>> {
    opts.check()?;
    let cms = match returned {
        SignatureOrCms::Signature(sig) => {
            cms::assemble(&prepared.signed_attrs, &sig).map_err(|e| Error::BadSignature(e.to_string()))?
        }
        SignatureOrCms::Cms(der) => {
            cms::check_external_cms(&der, &prepared.digest).map_err(|e| Error::BadSignature(e.to_string()))?;
            der
        }
    };
    let cms = add_signature_timestamp(cms, opts)?;
    if cms.len() > prepared.capacity {
        return Err(Error::BadSignature(format!(
            "the CMS is {} bytes but only {} were reserved",
            cms.len(),
            prepared.capacity
        )));
    }
    let mut bytes = prepared.bytes.clone();
    signet_pdf::embed_into(&mut bytes, &prepared.byte_range, Some(&prepared.digest), &cms)?;
    extend_signed(bytes, &cms, &prepared.digest, opts)
}

/// Phase 1 for a remote provider that returns a whole CMS and whose certificate is not known
/// before it signs (Aadhaar eSign: the ESP issues the signer's certificate during the
/// transaction). The appearance names `opts.name`; room is reserved for the provider's CMS
/// with its chain, and for a signature time-stamp when `opts.level` asks for one.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PreparedRemotePdf {
    pub bytes: Vec<u8>,
    pub byte_range: [u64; 4],
    /// SHA-256 over the ByteRange: what the provider signs (its CMS messageDigest).
    pub digest: [u8; 32],
    /// Largest CMS (DER bytes) that fits.
    pub capacity: usize,
    /// The placeholder is labelled `adbe.pkcs7.detached`, which any detached CMS fits;
    /// otherwise `ETSI.CAdES.detached`, which only a PAdES-baseline CMS completes. Absent
    /// (false) in what was prepared before the label was chosen: those are `ETSI.CAdES.detached`.
    #[serde(default)]
    pub pkcs7_label: bool,
}

pub fn prepare_remote_pdf(input: &[u8], opts: &PdfSignOptions) -> Result<PreparedRemotePdf> {
    let mut reserve = opts.contents_size.unwrap_or(EXTERNAL_CMS_ALLOWANCE);
    if opts.level >= PadesLevel::BT {
        reserve += TIMESTAMP_ALLOWANCE;
    }
    let prepared = signet_pdf::prepare(input, &pdf_options(&[], opts, reserve))?;
    Ok(PreparedRemotePdf {
        pkcs7_label: opts.sub_filter == signet_pdf::SubFilter::Pkcs7Detached,
        capacity: prepared.capacity(),
        byte_range: prepared.byte_range,
        digest: prepared.digest,
        bytes: prepared.bytes,
    })
}

/// Phase 2 for [`prepare_remote_pdf`]: the CMS must be well formed and sign exactly the
/// prepared digest, and be what the placeholder's `/SubFilter` says (a placeholder labelled
/// `ETSI.CAdES.detached` takes only a PAdES-baseline CMS, [`is_pades_baseline`]); it is
/// time-stamped and extended to `opts.level` and embedded.
pub fn complete_remote_pdf(prepared: &PreparedRemotePdf, cms_der: &[u8], opts: &PdfSignOptions) -> Result<Vec<u8>> {
    opts.check()?;
    let summary = cms::check_external_cms(cms_der, &prepared.digest).map_err(|e| Error::BadSignature(e.to_string()))?;
    if !prepared.pkcs7_label && !is_pades_baseline(&summary) {
        return Err(Error::BadSignature(
            "the CMS has signingTime or lacks signing-certificate-v2, so it is not PAdES baseline, \
             but the signature was prepared as ETSI.CAdES.detached"
                .into(),
        ));
    }
    let cms = add_signature_timestamp(cms_der.to_vec(), opts)?;
    if cms.len() > prepared.capacity {
        return Err(Error::BadSignature(format!(
            "the CMS is {} bytes but only {} were reserved",
            cms.len(),
            prepared.capacity
        )));
    }
    let mut bytes = prepared.bytes.clone();
    signet_pdf::embed_into(&mut bytes, &prepared.byte_range, Some(&prepared.digest), &cms)?;
    extend_signed(bytes, &cms, &prepared.digest, opts)
}

/// A CMS is PAdES baseline (ETSI EN 319 142-1 §6.3: `signing-certificate-v2` present,
/// `signingTime` absent) and may be labelled `ETSI.CAdES.detached`; any other detached CMS is
/// `adbe.pkcs7.detached`.
pub fn is_pades_baseline(summary: &cms::SignerSummary) -> bool {
    summary.has_signing_certificate_v2 && summary.signing_time.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse() {
        assert_eq!("b-lta".parse::<PadesLevel>().ok(), Some(PadesLevel::BLTA));
        assert_eq!("B_T".parse::<PadesLevel>().ok(), Some(PadesLevel::BT));
        assert!("c".parse::<PadesLevel>().is_err());
        assert!(PadesLevel::BLT > PadesLevel::BT);
    }

    #[test]
    fn timestamp_levels_need_a_tsa() {
        let opts = PdfSignOptions { level: PadesLevel::BT, ..Default::default() };
        assert!(opts.check().is_err());
    }
}
