//! RFC 3161 time-stamp client: request, transport, response checks, and the CAdES/PAdES
//! signature time-stamp (unsigned attribute id-aa-signatureTimeStampToken).

use cms::signed_data::SignedData;
use der::asn1::{GeneralizedTime, Int, OctetString, SetOfVec};
use der::{Any, Decode, Encode};
use spki::AlgorithmIdentifier;
use x509_cert::attr::Attribute;
use x509_tsp::{Accuracy, MessageImprint, TimeStampReq, TspVersion};

use crate::cms::{self as cmsmod, oid};
use crate::http::{self, HttpConfig};
use crate::pki;
use crate::public_key::HashAlg;
use crate::{Error, Result};

/// What a checked time-stamp token says.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TokenInfo {
    /// genTime, RFC 3339.
    pub gen_time: String,
    /// genTime as UNIX seconds.
    pub gen_time_unix: u64,
    /// TSA policy OID.
    pub policy: String,
    /// Serial number, hex.
    pub serial_hex: String,
    /// Subject of the TSA signing certificate.
    pub tsa_subject: String,
    /// The hashed message (imprint), hex.
    pub imprint_hex: String,
    /// TSA certificate, DER (for chain validation and DSS).
    #[serde(skip)]
    pub tsa_cert_der: Vec<u8>,
    /// Other certificates embedded in the token, DER.
    #[serde(skip)]
    pub other_certs_der: Vec<Vec<u8>>,
}

fn sha256_imprint(digest: &[u8]) -> Result<MessageImprint> {
    Ok(MessageImprint {
        hash_algorithm: AlgorithmIdentifier { oid: oid::ID_SHA256, parameters: None },
        hashed_message: OctetString::new(digest.to_vec())?,
    })
}

/// A DER TimeStampReq for a SHA-256 digest with the given nonce, asking for the TSA
/// certificate (certReq) so the token is verifiable on its own.
pub fn build_request(digest: &[u8; 32], nonce: &[u8]) -> Result<Vec<u8>> {
    let req = TimeStampReq {
        version: TspVersion::V1,
        message_imprint: sha256_imprint(digest)?,
        req_policy: None,
        nonce: Some(Int::new(nonce)?),
        cert_req: true,
        extensions: None,
    };
    Ok(req.to_der()?)
}

/// A random positive 64-bit nonce.
fn new_nonce() -> Result<[u8; 8]> {
    let mut n = [0u8; 8];
    aws_lc_rs::rand::fill(&mut n).map_err(|_| Error::Crypto("random generator failed".into()))?;
    n[0] = (n[0] & 0x7f) | 0x01;
    Ok(n)
}

/// Parse a TimeStampResp, check status, imprint and nonce; return the token (ContentInfo DER).
pub fn parse_response(resp_der: &[u8], digest: &[u8; 32], nonce: &[u8]) -> Result<Vec<u8>> {
    let resp = TimeStampResp::from_der(resp_der).map_err(|e| Error::Tsp(format!("malformed TimeStampResp: {e}")))?;
    resp.status.check_granted()?;
    let token = resp.time_stamp_token.ok_or_else(|| Error::Tsp("response has no time-stamp token".into()))?;
    let token_der = token.to_der()?;
    check_token(&token_der, digest)?;
    let tst = tst_info(&token_der)?;
    if tst.message_imprint.hash_algorithm.oid != oid::ID_SHA256 {
        return Err(Error::Tsp(format!(
            "token imprint is hashed with {}, not the SHA-256 the request named",
            tst.message_imprint.hash_algorithm.oid
        )));
    }
    check_nonce(tst.nonce.as_ref(), nonce)?;
    check_fresh(tst.gen_time.to_unix_duration().as_secs())?;
    Ok(token_der)
}

/// TimeStampResp (RFC 3161 §2.4.2). Read here rather than with `x509_tsp`'s, whose
/// PKIStatusInfo (from `cmpv2`) keeps failInfo in 16 bits: a refusal naming
/// unacceptedExtension (16), addInfoNotAvailable (17) or systemFailure (25) would not decode.
#[derive(Clone, Debug, der::Sequence)]
struct TimeStampResp {
    status: StatusInfo,
    #[asn1(optional = "true")]
    time_stamp_token: Option<cms::content_info::ContentInfo>,
}

/// PKIStatusInfo as RFC 3161 §2.4.2 uses it.
#[derive(Clone, Debug, der::Sequence)]
struct StatusInfo {
    status: u32,
    #[asn1(optional = "true")]
    status_string: Option<Vec<String>>,
    #[asn1(optional = "true")]
    fail_info: Option<der::asn1::BitString>,
}

/// PKIStatus values that carry a token: granted, grantedWithMods.
const GRANTED: [u32; 2] = [0, 1];
const STATUS_NAMES: [&str; 6] =
    ["granted", "grantedWithMods", "rejection", "waiting", "revocationWarning", "revocationNotification"];
/// PKIFailureInfo bits RFC 3161 §2.4.2 defines, by bit number.
const FAILURE_NAMES: [(usize, &str); 8] = [
    (0, "badAlg"),
    (2, "badRequest"),
    (5, "badDataFormat"),
    (14, "timeNotAvailable"),
    (15, "unacceptedPolicy"),
    (16, "unacceptedExtension"),
    (17, "addInfoNotAvailable"),
    (25, "systemFailure"),
];

impl StatusInfo {
    /// Anything but granted is a refusal, reported with the TSA's status, failure bits and
    /// own words.
    fn check_granted(&self) -> Result<()> {
        if GRANTED.contains(&self.status) {
            return Ok(());
        }
        let status =
            usize::try_from(self.status).ok().and_then(|i| STATUS_NAMES.get(i)).copied().unwrap_or("unknown status");
        let failures = self.failure_names();
        let failures = if failures.is_empty() { String::new() } else { format!(" ({})", failures.join(", ")) };
        let text = self.status_string.as_ref().map(|s| format!(": {}", s.join("; "))).unwrap_or_default();
        Err(Error::Tsp(format!("TSA refused the request: {status}{failures}{text}")))
    }

    fn failure_names(&self) -> Vec<&'static str> {
        let Some(bits) = &self.fail_info else { return Vec::new() };
        let bytes = bits.raw_bytes();
        let is_set = |bit: usize| bytes.get(bit / 8).is_some_and(|b| b & (0x80 >> (bit % 8)) != 0);
        FAILURE_NAMES.iter().filter(|(bit, _)| is_set(*bit)).map(|(_, name)| *name).collect()
    }
}

/// RFC 3161 §2.4.2: a request's nonce MUST come back unchanged; a missing or different one
/// means the answer is not to this request (a replay, or a TSA that ignores nonces).
fn check_nonce(answered: Option<&Int>, sent: &[u8]) -> Result<()> {
    let sent = Int::new(sent)?;
    match answered {
        None => Err(Error::Tsp("the TSA's token carries no nonce; the request sent one".into())),
        Some(n) if *n != sent => Err(Error::Tsp("nonce in the token does not match the request".into())),
        Some(_) => Ok(()),
    }
}

/// A fresh token's genTime must be close to our clock: a TSA whose clock is far off gives
/// worthless time evidence.
const MAX_CLOCK_SKEW_SECS: u64 = 10 * 60;

fn check_fresh(gen_time: u64) -> Result<()> {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    if gen_time.abs_diff(now) > MAX_CLOCK_SKEW_SECS {
        return Err(Error::Tsp(format!(
            "TSA time {} differs from local time {} by more than {} s",
            cmsmod::format_time(std::time::Duration::from_secs(gen_time)),
            cmsmod::format_time(std::time::Duration::from_secs(now)),
            MAX_CLOCK_SKEW_SECS
        )));
    }
    Ok(())
}

/// TSTInfo (RFC 3161 §2.4.2) as TSAs write it. The same fields as `x509_tsp::TstInfo`, but
/// genTime may carry a fraction of a second, which §2.4.2 allows and many TSAs (pyHanko's,
/// Sectigo's, DigiCert's) write, and which the `der` crate's GeneralizedTime refuses.
#[derive(Clone, Debug, Eq, PartialEq, der::Sequence)]
pub struct TstInfo {
    pub version: TspVersion,
    pub policy: der::oid::ObjectIdentifier,
    pub message_imprint: MessageImprint,
    pub serial_number: Int,
    pub gen_time: GenTime,
    #[asn1(optional = "true")]
    pub accuracy: Option<Accuracy>,
    #[asn1(default = "Default::default")]
    pub ordering: bool,
    #[asn1(optional = "true")]
    pub nonce: Option<Int>,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub tsa: Option<x509_cert::ext::pkix::name::GeneralName>,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub extensions: Option<x509_cert::ext::Extensions>,
}

/// A GeneralizedTime in UTC with an optional fraction of a second
/// (`YYYYMMDDhhmmss[.f+]Z`, X.690 §11.7). Encoded back in whole seconds.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct GenTime(std::time::Duration);

impl GenTime {
    /// Time since the UNIX epoch.
    pub fn to_unix_duration(self) -> std::time::Duration {
        self.0
    }

    fn parse(text: &[u8]) -> Option<GenTime> {
        let text = std::str::from_utf8(text).ok()?.strip_suffix('Z')?;
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if whole.len() != 14 || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if fraction.len() > 9
            || !fraction.bytes().all(|b| b.is_ascii_digit())
            || (text.contains('.') && fraction.is_empty())
        {
            return None;
        }
        let field = |at: usize, len: usize| whole[at..at + len].parse::<u16>().ok();
        let date = der::DateTime::new(
            field(0, 4)?,
            u8::try_from(field(4, 2)?).ok()?,
            u8::try_from(field(6, 2)?).ok()?,
            u8::try_from(field(8, 2)?).ok()?,
            u8::try_from(field(10, 2)?).ok()?,
            u8::try_from(field(12, 2)?).ok()?,
        )
        .ok()?;
        let nanos = if fraction.is_empty() { 0 } else { format!("{fraction:0<9}").parse::<u32>().ok()? };
        Some(GenTime(date.unix_duration() + std::time::Duration::from_nanos(u64::from(nanos))))
    }

    fn whole_seconds(self) -> der::Result<GeneralizedTime> {
        GeneralizedTime::from_unix_duration(std::time::Duration::from_secs(self.0.as_secs()))
    }
}

impl der::FixedTag for GenTime {
    const TAG: der::Tag = der::Tag::GeneralizedTime;
}

impl<'a> der::DecodeValue<'a> for GenTime {
    fn decode_value<R: der::Reader<'a>>(reader: &mut R, header: der::Header) -> der::Result<Self> {
        let text = reader.read_vec(header.length)?;
        GenTime::parse(&text).ok_or_else(|| der::Tag::GeneralizedTime.value_error())
    }
}

impl der::EncodeValue for GenTime {
    fn value_len(&self) -> der::Result<der::Length> {
        self.whole_seconds()?.value_len()
    }

    fn encode_value(&self, writer: &mut impl der::Writer) -> der::Result<()> {
        self.whole_seconds()?.encode_value(writer)
    }
}

/// Extract the TSTInfo of a token.
pub fn tst_info(token_der: &[u8]) -> Result<TstInfo> {
    let sd = cmsmod::parse_signed_data(token_der)?;
    if sd.encap_content_info.econtent_type != oid::ID_CT_TST_INFO {
        return Err(Error::Tsp("token content is not TSTInfo".into()));
    }
    let content = sd.encap_content_info.econtent.as_ref().ok_or_else(|| Error::Tsp("token without TSTInfo".into()))?;
    // eContent is an OCTET STRING whose value is the DER TSTInfo.
    TstInfo::from_der(content.value()).map_err(|e| Error::Tsp(format!("malformed TSTInfo: {e}")))
}

/// Verify a time-stamp token: CMS signature by a certificate with EKU timeStamping, and a
/// SHA-256 (or SHA-384/512) imprint equal to the hash of `data_digest_input`'s owner.
/// `expected_imprint` is the hashed message the token must carry.
pub fn check_token(token_der: &[u8], expected_imprint: &[u8]) -> Result<TokenInfo> {
    let sd = cmsmod::parse_signed_data(token_der)?;
    let si = cmsmod::single_signer(&sd)?;
    let content = sd
        .encap_content_info
        .econtent
        .as_ref()
        .map(|a| a.value().to_vec())
        .ok_or_else(|| Error::Tsp("token without TSTInfo".into()))?;
    let summary =
        cmsmod::check_signer_info(&sd, si, Some(&content)).map_err(|e| Error::Tsp(format!("token signature: {e}")))?;
    check_ess_reference(si, &cmsmod::find_signer_cert(&sd, si)?)?;
    let tst = tst_info(token_der)?;
    if tst.message_imprint.hashed_message.as_bytes() != expected_imprint {
        return Err(Error::Tsp("token imprint does not match the time-stamped data".into()));
    }
    check_tsa_eku(&summary.cert_der)?;
    let generated = tst.gen_time.to_unix_duration();
    Ok(TokenInfo {
        gen_time: cmsmod::format_time(generated),
        gen_time_unix: generated.as_secs(),
        policy: tst.policy.to_string(),
        serial_hex: hex::encode(tst.serial_number.as_bytes()),
        tsa_subject: summary.subject,
        imprint_hex: hex::encode(expected_imprint),
        tsa_cert_der: summary.cert_der,
        other_certs_der: summary.other_certs_der,
    })
}

/// [`check_token`] for a token over `data`, hashed with the algorithm the token's imprint
/// names: a token that another program requested (a CAdES-T or PAdES signature made
/// elsewhere) may be over SHA-384 or SHA-512 rather than the SHA-256 Signet asks for.
pub fn check_token_over(token_der: &[u8], data: &[u8]) -> Result<TokenInfo> {
    let tst = tst_info(token_der)?;
    let named = &tst.message_imprint.hash_algorithm.oid;
    let hash = HashAlg::from_oid(named)
        .filter(|h| *h != HashAlg::Sha1)
        .ok_or_else(|| Error::Tsp(format!("token imprint hash algorithm {named} is not accepted")))?;
    check_token(token_der, &hash.digest(data))
}

/// RFC 3161 §2.4.1 (ESS signingCertificate) and RFC 5816 (signingCertificateV2): the token's
/// signed attributes name the TSA certificate, SHA-1 in version 1, any hash in version 2.
/// Each one present must name the certificate whose key signed, so that another certificate
/// of the same key cannot be passed off as the TSA's; one of them must be present (RFC 3161
/// says MUST, and `openssl ts -verify` refuses a token without).
fn check_ess_reference(si: &cms::signed_data::SignerInfo, cert: &x509_cert::Certificate) -> Result<()> {
    let attrs = si.signed_attrs.as_ref().ok_or_else(|| Error::Tsp("token without signed attributes".into()))?;
    let unreadable = |e: Error| Error::Tsp(format!("token's signing certificate reference: {e}"));
    let references = [
        cmsmod::signing_certificate_v1_ref(attrs).map_err(unreadable)?,
        cmsmod::signing_certificate_v2_ref(attrs).map_err(unreadable)?,
    ];
    let mut named = false;
    for reference in references.iter().flatten() {
        if !reference.names(cert) {
            return Err(Error::Tsp(
                "the token's ESS signing certificate reference does not name the certificate that signed it".into(),
            ));
        }
        named = true;
    }
    if !named {
        return Err(Error::Tsp(
            "the token names its TSA certificate in neither signingCertificate nor signingCertificateV2".into(),
        ));
    }
    Ok(())
}

/// RFC 3161 §2.3: the TSA certificate must carry EKU id-kp-timeStamping (critical).
fn check_tsa_eku(cert_der: &[u8]) -> Result<()> {
    let cert = pki::parse_cert(cert_der)?;
    let eku = cert
        .tbs_certificate
        .extensions
        .as_ref()
        .and_then(|exts| exts.iter().find(|e| e.extn_id == const_oid::db::rfc5280::ID_CE_EXT_KEY_USAGE))
        .ok_or_else(|| Error::Tsp("TSA certificate has no extended key usage".into()))?;
    let usages = x509_cert::ext::pkix::ExtendedKeyUsage::from_der(eku.extn_value.as_bytes())?;
    if !usages.0.contains(&const_oid::db::rfc5280::ID_KP_TIME_STAMPING) {
        return Err(Error::Tsp("TSA certificate lacks EKU timeStamping".into()));
    }
    if !eku.critical {
        return Err(Error::Tsp("TSA certificate EKU must be critical".into()));
    }
    Ok(())
}

/// Ask the TSA at `url` for a token over a SHA-256 `digest` (e.g. the ByteRange digest of a
/// PDF document time-stamp, B-LTA). Private addresses are refused; see
/// [`timestamp_token_with`].
pub fn timestamp_token(digest: &[u8; 32], url: &str) -> Result<Vec<u8>> {
    timestamp_token_with(digest, url, &HttpConfig::default())
}

/// [`timestamp_token`] with explicit HTTP limits.
pub fn timestamp_token_with(digest: &[u8; 32], url: &str, cfg: &HttpConfig) -> Result<Vec<u8>> {
    let nonce = new_nonce()?;
    let req = build_request(digest, &nonce)?;
    let resp = http::post(url, "application/timestamp-query", &req, cfg)?;
    parse_response(&resp, digest, &nonce)
}

/// Add a signature time-stamp (B-T) to every SignerInfo of a CMS: the token's imprint is the
/// SHA-256 of the SignerInfo's signature value (the OCTET STRING content only).
pub fn add_signature_timestamp(cms_der: &[u8], tsa_url: &str) -> Result<Vec<u8>> {
    add_signature_timestamp_with(cms_der, tsa_url, &HttpConfig::default())
}

/// [`add_signature_timestamp`] with explicit HTTP limits.
pub fn add_signature_timestamp_with(cms_der: &[u8], tsa_url: &str, cfg: &HttpConfig) -> Result<Vec<u8>> {
    add_signature_timestamp_by(cms_der, |digest| timestamp_token_with(digest, tsa_url, cfg))
}

/// Add signature time-stamps with tokens from any source (the callback gets the digest of
/// the signature value and returns a token).
pub fn add_signature_timestamp_by(
    cms_der: &[u8],
    mut get_token: impl FnMut(&[u8; 32]) -> Result<Vec<u8>>,
) -> Result<Vec<u8>> {
    let mut sd = cmsmod::parse_signed_data(cms_der)?;
    let mut infos = Vec::new();
    for si in sd.signer_infos.0.iter() {
        let mut si = si.clone();
        let digest = pki::sha256(si.signature.as_bytes());
        let token = get_token(&digest)?;
        let token_any = Any::from_der(&token)?;
        let mut values = SetOfVec::new();
        values.insert(token_any)?;
        let attr = Attribute { oid: oid::ID_AA_SIGNATURE_TIMESTAMP_TOKEN, values };
        let mut unsigned = si.unsigned_attrs.take().unwrap_or_default();
        // Replace an earlier signature time-stamp rather than stacking a second one.
        let kept: Vec<Attribute> =
            unsigned.iter().filter(|a| a.oid != oid::ID_AA_SIGNATURE_TIMESTAMP_TOKEN).cloned().collect();
        unsigned = SetOfVec::try_from(kept)?;
        unsigned.insert(attr)?;
        si.unsigned_attrs = Some(unsigned);
        infos.push(si);
    }
    sd.signer_infos = cms::signed_data::SignerInfos(SetOfVec::try_from(infos)?);
    encode_signed_data(&sd)
}

pub(crate) fn encode_signed_data(sd: &SignedData) -> Result<Vec<u8>> {
    let ci = cms::content_info::ContentInfo { content_type: oid::ID_SIGNED_DATA, content: Any::encode_from(sd)? };
    Ok(ci.to_der()?)
}

/// The signature time-stamp tokens attached to each SignerInfo (DER ContentInfo).
pub fn signature_timestamp_tokens(cms_der: &[u8]) -> Result<Vec<Vec<u8>>> {
    let sd = cmsmod::parse_signed_data(cms_der)?;
    let mut out = Vec::new();
    for si in sd.signer_infos.0.iter() {
        if let Some(u) = &si.unsigned_attrs {
            for a in u.iter().filter(|a| a.oid == oid::ID_AA_SIGNATURE_TIMESTAMP_TOKEN) {
                for v in a.values.iter() {
                    out.push(v.to_der()?);
                }
            }
        }
    }
    Ok(out)
}

/// Time as GeneralizedTime → UNIX seconds (helper for callers comparing times).
pub fn generalized_time_unix(t: &GeneralizedTime) -> u64 {
    t.to_unix_duration().as_secs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_encodes_and_garbage_responses_fail() -> Result<()> {
        let d = [7u8; 32];
        let req = build_request(&d, &[1, 2, 3])?;
        let back = TimeStampReq::from_der(&req)?;
        assert!(back.cert_req);
        for junk in [&b""[..], b"\x30\x00", b"\x30\x03\x02\x01\x00", b"garbage"] {
            assert!(parse_response(junk, &d, &[1]).is_err());
            assert!(check_token(junk, &d).is_err());
        }
        Ok(())
    }

    #[test]
    fn gen_time_takes_fractions_of_a_second() {
        let whole = GenTime::parse(b"20261128101530Z").map(GenTime::to_unix_duration);
        assert_eq!(whole, Some(std::time::Duration::from_secs(1_795_860_930)));
        let fraction = GenTime::parse(b"20261128101530.25Z").map(GenTime::to_unix_duration);
        assert_eq!(fraction, Some(std::time::Duration::from_millis(1_795_860_930_250)));
        for bad in [
            &b"20261128101530"[..],
            b"20261128101530.Z",
            b"2026112810153Z",
            b"20261328101530Z",
            b"20261128101530.1234567890Z",
        ] {
            assert_eq!(GenTime::parse(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }
}
