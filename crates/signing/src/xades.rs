//! XML signatures made long-term (XAdES B-T and B-LT, ETSI EN 319 132-1): a signature
//! time-stamp over the SignatureValue, and the chains of the signer and of the TSA with their
//! revocation values, in the signature's unsigned properties. An Aadhaar eSign certificate
//! lives 30 minutes: without them its signature cannot be validated an hour later.

use signet_sigcrypto::long_term::CarriedValidation;
use signet_sigcrypto::xmldsig::{self, LongTermMaterial, LongTermValues};
use signet_sigcrypto::{HttpConfig, pki, revocation, tsp};

use crate::error::{Error, Result};
use crate::pades::ValidationData;
use crate::validation_data::{lacking_for_chains, merge_unique};

/// How to extend an XML signature.
#[derive(Debug, Clone, Default)]
pub struct XmlExtendOptions {
    /// The TSA of the signature time-stamp; needed unless the signature has one.
    pub tsa_url: Option<String>,
    /// Limits and address policy for the TSA, OCSP, CRL and caIssuers fetches.
    pub http: HttpConfig,
    /// Certificates, OCSP responses and CRLs the caller has (a CA that publishes nowhere).
    pub validation: ValidationData,
}

/// Raises the document's one XML signature to XAdES B-LT: a signature time-stamp when it has
/// none, then every certificate of the signer's and the TSA's chains and, for each certificate
/// but the roots, an OCSP response where its CA offers one, else a CRL, asking only about what
/// the signature (or `opts.validation`) does not answer for yet. Revocation data that cannot
/// be had is an [`Error::Ltv`], never a partial result: the caller keeps the signature it had.
pub fn extend_xml(xml: &[u8], opts: &XmlExtendOptions) -> Result<Vec<u8>> {
    let material = xmldsig::long_term_material(xml)?;
    let mut additions = LongTermValues::default();
    let token = match material.held.signature_timestamps.first() {
        Some(token) => token.clone(),
        None => {
            let token = signature_timestamp(&material, opts)?;
            additions.signature_timestamps.push(token.clone());
            token
        }
    };
    let tsa = tsp::check_token_over(&token, &material.signature_value_c14n)?;
    let mut pool = material.key_info_chain.clone();
    merge_unique(&mut pool, material.held.certificates.clone());
    merge_unique(&mut pool, opts.validation.certs.clone());
    merge_unique(&mut pool, tsa.other_certs_der.clone());
    let chains = [
        revocation::complete_chain(&material.signer_certificate, &pool, &opts.http)?,
        revocation::complete_chain(&tsa.tsa_cert_der, &pool, &opts.http)?,
    ];
    let held = &material.held;
    let carried =
        CarriedValidation { certs: held.certificates.clone(), ocsps: held.ocsps.clone(), crls: held.crls.clone() };
    let lacking = lacking_for_chains(&chains, &carried, &opts.validation, &opts.http)?;
    (additions.certificates, additions.ocsps, additions.crls) = (lacking.certs, lacking.ocsps, lacking.crls);
    if additions.is_empty() {
        return Ok(xml.to_vec());
    }
    Ok(xmldsig::add_long_term_values(xml, &additions)?)
}

/// Only the signature time-stamp (XAdES B-T), when the validation data cannot be had: the
/// signature then at least proves when it was made. A signature that has one is returned as is.
pub fn timestamp_xml(xml: &[u8], opts: &XmlExtendOptions) -> Result<Vec<u8>> {
    let material = xmldsig::long_term_material(xml)?;
    if !material.held.signature_timestamps.is_empty() {
        return Ok(xml.to_vec());
    }
    let stamp =
        LongTermValues { signature_timestamps: vec![signature_timestamp(&material, opts)?], ..Default::default() };
    Ok(xmldsig::add_long_term_values(xml, &stamp)?)
}

/// A token from the configured TSA over the canonical SignatureValue.
fn signature_timestamp(material: &LongTermMaterial, opts: &XmlExtendOptions) -> Result<Vec<u8>> {
    let url = opts
        .tsa_url
        .as_deref()
        .filter(|u| !u.is_empty())
        .ok_or_else(|| Error::InvalidOptions("a signature time-stamp needs a TSA URL".into()))?;
    Ok(tsp::timestamp_token_with(&pki::sha256(&material.signature_value_c14n), url, &opts.http)?)
}
