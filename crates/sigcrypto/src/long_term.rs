//! CAdES long-term validation data (EN 319 122-1 B-LT): the certificates and revocation answers
//! a CMS signature needs to be validated after its certificates expire and their CAs stop
//! answering, carried in the CMS itself.
//!
//! - Certificates go into `SignedData.certificates`, CRLs into `SignedData.crls`: every CMS
//!   reader looks there (`openssl cms -verify -crl_check` validates offline from them).
//! - OCSP answers go into the signer's unsigned `revocation-values` attribute (RFC 5126
//!   §6.3.4, `ocspVals`: BasicOCSPResponse). RFC 5940's other home for them, an
//!   `[1] IMPLICIT OtherRevocationInfoFormat` in `SignedData.crls`, is decoded as EXPLICIT by
//!   the `cms` crate: a CMS carrying one would no longer parse here, nor in other readers
//!   built on it.
//!
//! Neither place is signed, so adding to them leaves the signature and its time-stamp intact;
//! [`add_validation_data`] checks that the signed bytes came through unchanged.

use cms::cert::CertificateChoices;
use cms::revocation::{RevocationInfoChoice, RevocationInfoChoices};
use cms::signed_data::{CertificateSet, SignerInfo, SignerInfos};
use der::asn1::SetOfVec;
use der::{Any, Decode, Encode, Tag, TagNumber};
use x509_cert::attr::Attribute;
use x509_cert::crl::CertificateList;

use crate::cms::{self as cmsmod, attr_value, elements, oid};
use crate::revocation::{basic_ocsp_response, ocsp_response_from_basic};
use crate::tsp::encode_signed_data;
use crate::{Error, Result};

/// Items of one kind read from a CMS: far more than any real chain needs.
const MAX_CARRIED: usize = 256;

/// Certificates and revocation answers (each DER; OCSP as whole OCSPResponses).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CarriedValidation {
    pub certs: Vec<Vec<u8>>,
    pub ocsps: Vec<Vec<u8>>,
    pub crls: Vec<Vec<u8>>,
}

impl CarriedValidation {
    pub fn is_empty(&self) -> bool {
        self.certs.is_empty() && self.ocsps.is_empty() && self.crls.is_empty()
    }
}

/// What a CMS carries for its own validation: its certificates, the CRLs of `SignedData.crls`,
/// and the CRLs and OCSP answers of its signers' `revocation-values` attributes.
pub fn carried_validation_data(cms_der: &[u8]) -> Result<CarriedValidation> {
    let sd = cmsmod::parse_signed_data(cms_der)?;
    let mut out = CarriedValidation::default();
    for choice in sd.certificates.iter().flat_map(|set| set.0.iter()).take(MAX_CARRIED) {
        if let CertificateChoices::Certificate(cert) = choice {
            out.certs.push(cert.to_der()?);
        }
    }
    for choice in sd.crls.iter().flat_map(|set| set.0.iter()).take(MAX_CARRIED) {
        if let RevocationInfoChoice::Crl(crl) = choice {
            out.crls.push(crl.to_der()?);
        }
    }
    for si in sd.signer_infos.0.iter() {
        let (crls, ocsps) = revocation_values(si);
        out.crls.extend(crls);
        out.ocsps.extend(ocsps);
    }
    Ok(out)
}

/// The CRLs and OCSP answers (as OCSPResponses) of a SignerInfo's `revocation-values`
/// attribute; one that cannot be read adds nothing.
pub(crate) fn revocation_values(si: &SignerInfo) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (mut crls, mut ocsps) = (Vec::new(), Vec::new());
    let Some(value) =
        si.unsigned_attrs.as_ref().and_then(|a| attr_value(a, &oid::ID_AA_ETS_REVOCATION_VALUES).ok().flatten())
    else {
        return (crls, ocsps);
    };
    for field in elements(value.value()).unwrap_or_default() {
        let Tag::ContextSpecific { number, .. } = der::Tagged::tag(&field) else { continue };
        let Ok(list) = der::asn1::AnyRef::from_der(field.value()) else { continue };
        let items = elements(list.value()).unwrap_or_default().into_iter().take(MAX_CARRIED);
        match number.value() {
            0 => crls.extend(items.filter_map(|item| item.to_der().ok())),
            1 => ocsps.extend(items.filter_map(|item| ocsp_response_from_basic(&item.to_der().ok()?).ok())),
            _ => {}
        }
    }
    (crls, ocsps)
}

/// The CMS with `add` carried as well: certificates and CRLs it lacks in its own fields, OCSP
/// answers in each signer's `revocation-values` attribute (merged with any it holds).
pub fn add_validation_data(cms_der: &[u8], add: &CarriedValidation) -> Result<Vec<u8>> {
    let mut sd = cmsmod::parse_signed_data(cms_der)?;
    let signed_before = cmsmod::carried_signed_attrs(cms_der)?;
    let mut certs: Vec<CertificateChoices> = sd.certificates.take().map(|set| set.0.into_vec()).unwrap_or_default();
    for der in &add.certs {
        let cert = CertificateChoices::Certificate(x509_cert::Certificate::from_der(der)?);
        if !certs.contains(&cert) {
            certs.push(cert);
        }
    }
    sd.certificates = (!certs.is_empty()).then(|| SetOfVec::try_from(certs).map(CertificateSet)).transpose()?;
    let mut crls: Vec<RevocationInfoChoice> = sd.crls.take().map(|set| set.0.into_vec()).unwrap_or_default();
    for der in &add.crls {
        let crl = RevocationInfoChoice::Crl(CertificateList::from_der(der)?);
        if !crls.contains(&crl) {
            crls.push(crl);
        }
    }
    sd.crls = (!crls.is_empty()).then(|| SetOfVec::try_from(crls).map(RevocationInfoChoices)).transpose()?;
    if !add.ocsps.is_empty() {
        let infos: Vec<SignerInfo> =
            sd.signer_infos.0.iter().map(|si| with_ocsp_values(si, &add.ocsps)).collect::<Result<_>>()?;
        sd.signer_infos = SignerInfos(SetOfVec::try_from(infos)?);
    }
    let extended = encode_signed_data(&sd)?;
    if cmsmod::carried_signed_attrs(&extended)? != signed_before
        || cmsmod::signature_values(&extended)? != cmsmod::signature_values(cms_der)?
    {
        return Err(Error::Cms("the signed attributes would not survive re-encoding (not DER)".into()));
    }
    Ok(extended)
}

/// The SignerInfo with `ocsps` (OCSPResponses) in its `revocation-values`, beside what it had.
fn with_ocsp_values(si: &SignerInfo, ocsps: &[Vec<u8>]) -> Result<SignerInfo> {
    let (crls, mut held) = revocation_values(si);
    for ocsp in ocsps {
        if !held.contains(ocsp) {
            held.push(ocsp.clone());
        }
    }
    let basics = held.iter().map(|o| basic_ocsp_response(o)).collect::<Result<Vec<_>>>()?;
    let value = revocation_values_der(&crls, &basics)?;
    let attribute = Attribute { oid: oid::ID_AA_ETS_REVOCATION_VALUES, values: SetOfVec::try_from(vec![value])? };
    let mut si = si.clone();
    let kept: Vec<Attribute> = si
        .unsigned_attrs
        .take()
        .map(|attrs| attrs.into_vec())
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a.oid != oid::ID_AA_ETS_REVOCATION_VALUES)
        .chain(std::iter::once(attribute))
        .collect();
    si.unsigned_attrs = Some(SetOfVec::try_from(kept)?);
    Ok(si)
}

/// `RevocationValues ::= SEQUENCE { crlVals [0] SEQUENCE OF CertificateList OPTIONAL,
/// ocspVals [1] SEQUENCE OF BasicOCSPResponse OPTIONAL, ... }` (explicit tags, RFC 5126).
fn revocation_values_der(crls: &[Vec<u8>], basics: &[Vec<u8>]) -> Result<Any> {
    let mut fields = Vec::new();
    for (number, items) in [(TagNumber::N0, crls), (TagNumber::N1, basics)] {
        if items.is_empty() {
            continue;
        }
        let list = tlv(Tag::Sequence, &items.concat())?;
        fields.extend(tlv(Tag::ContextSpecific { constructed: true, number }, &list)?);
    }
    Ok(Any::from_der(&tlv(Tag::Sequence, &fields)?)?)
}

fn tlv(tag: Tag, contents: &[u8]) -> Result<Vec<u8>> {
    let mut out = der::Header::new(tag, contents.len())?.to_der()?;
    out.extend_from_slice(contents);
    Ok(out)
}
