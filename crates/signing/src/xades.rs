//! XML signatures made long-term (XAdES B-T and B-LT, ETSI EN 319 132-1): a signature
//! time-stamp over the SignatureValue, and the chains of the signer and of the TSA with their
//! revocation values, in the signature's unsigned properties. An Aadhaar eSign certificate
//! lives 30 minutes: without them its signature cannot be validated an hour later.

use signet_sigcrypto::xmldsig::{self, LongTermMaterial, LongTermValues};
use signet_sigcrypto::{HttpConfig, pki, revocation, tsp};

use crate::error::{Error, Result};
use crate::pades::ValidationData;
use crate::validation_data::merge_unique;

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
    let found = revocation_values(&chains, &material.held, opts)?;
    additions.certificates =
        found.certificates.into_iter().filter(|c| !material.held.certificates.contains(c)).collect();
    additions.ocsps = found.ocsps.into_iter().filter(|o| !material.held.ocsps.contains(o)).collect();
    additions.crls = found.crls.into_iter().filter(|c| !material.held.crls.contains(c)).collect();
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

/// The certificates of `chains` and, for each certificate that is not a root, the revocation
/// values the signature lacks: fetched, or taken from what the caller supplied.
fn revocation_values(
    chains: &[Vec<Vec<u8>>],
    held: &LongTermValues,
    opts: &XmlExtendOptions,
) -> Result<LongTermValues> {
    let ocsps: Vec<Vec<u8>> = held.ocsps.iter().chain(&opts.validation.ocsps).cloned().collect();
    let crls: Vec<Vec<u8>> = held.crls.iter().chain(&opts.validation.crls).cloned().collect();
    let known = revocation::HeldRevocation { ocsps: &ocsps, crls: &crls };
    let in_signature = revocation::HeldRevocation { ocsps: &held.ocsps, crls: &held.crls };
    let mut found = LongTermValues::default();
    let mut missing = Vec::new();
    for chain in chains {
        let data = revocation::collect_missing_revocation_data(chain, &known, &opts.http);
        merge_unique(&mut found.certificates, data.certs_der);
        merge_unique(&mut found.ocsps, data.ocsps_der);
        merge_unique(&mut found.crls, data.crls_der);
        missing.extend(data.missing);
        for pair in chain.windows(2) {
            let (cert, issuer) = (&pair[0], &pair[1]);
            if in_signature.answers_for(cert, issuer) {
                continue;
            }
            let supplied = &opts.validation;
            let ocsps = supplied.ocsps.iter().filter(|o| revocation::check_ocsp_response(o, cert, issuer).is_ok());
            let crls = supplied.crls.iter().filter(|c| revocation::check_crl(c, cert, issuer).is_ok());
            merge_unique(&mut found.ocsps, ocsps.cloned().collect());
            merge_unique(&mut found.crls, crls.cloned().collect());
        }
    }
    if !missing.is_empty() {
        return Err(Error::Ltv(format!("no revocation data for {}", missing.join("; "))));
    }
    Ok(found)
}
