//! What signatures already carried (in a PDF's DSS, in a CMS's own fields) still lack to be
//! validated long-term: the chain of every signer and time-stamp authority, and an answer on
//! the status of each certificate in it. PAdES and CAdES extension both ask here, so a PDF and
//! a detached CMS signed by the same certificate get the same data.

use signet_sigcrypto::long_term::CarriedValidation;
use signet_sigcrypto::{HttpConfig, cms, revocation};

use crate::error::{Error, Result};
use crate::pades::ValidationData;

/// The certificates, OCSP answers and CRLs that `tokens` (CMS signatures and time-stamp tokens)
/// need and `carried` lacks. Only certificates without a carried answer are asked about, so a
/// second extension (another signature, a renewal) never asks about a signer whose certificate
/// expired meanwhile. `supplied` answers for a CA that publishes nowhere (Signet's own) and goes
/// in only where `carried` has no answer. Any certificate left without an answer is an error:
/// never a silent partial result.
pub(crate) fn lacking(
    tokens: &[Vec<u8>],
    carried: &CarriedValidation,
    supplied: &ValidationData,
    http: &HttpConfig,
) -> Result<CarriedValidation> {
    let mut pool = carried.certs.clone();
    merge_unique(&mut pool, supplied.certs.clone());
    let mut leaves = Vec::new();
    for token in tokens {
        let certificates = cms::signer_certificates(token)?;
        merge_unique(&mut leaves, certificates.signers);
        merge_unique(&mut pool, certificates.all);
    }
    let chains = leaves
        .iter()
        .map(|leaf| revocation::complete_chain(leaf, &pool, http))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    lacking_for_chains(&chains, carried, supplied, http)
}

/// [`lacking`] for chains already built (leaf first): their certificates and an answer on each
/// certificate but the root that `carried` lacks, fetched or taken from `supplied`.
pub(crate) fn lacking_for_chains(
    chains: &[Vec<Vec<u8>>],
    carried: &CarriedValidation,
    supplied: &ValidationData,
    http: &HttpConfig,
) -> Result<CarriedValidation> {
    let ocsps: Vec<Vec<u8>> = carried.ocsps.iter().chain(&supplied.ocsps).cloned().collect();
    let crls: Vec<Vec<u8>> = carried.crls.iter().chain(&supplied.crls).cloned().collect();
    let held = revocation::HeldRevocation { ocsps: &ocsps, crls: &crls };
    let in_carried = revocation::HeldRevocation { ocsps: &carried.ocsps, crls: &carried.crls };
    let mut found = CarriedValidation::default();
    let mut missing = Vec::new();
    for chain in chains {
        let data = revocation::collect_missing_revocation_data(chain, &held, http);
        merge_unique(&mut found.certs, data.certs_der);
        merge_unique(&mut found.ocsps, data.ocsps_der);
        merge_unique(&mut found.crls, data.crls_der);
        missing.extend(data.missing);
        // What the caller supplied goes in where nothing carried answers: not again and again
        // on each extension.
        for pair in chain.windows(2) {
            let (cert, issuer) = (&pair[0], &pair[1]);
            if !in_carried.answers_for(cert, issuer) {
                let ocsps = supplied.ocsps.iter().filter(|o| revocation::check_ocsp_response(o, cert, issuer).is_ok());
                let crls = supplied.crls.iter().filter(|c| revocation::check_crl(c, cert, issuer).is_ok());
                merge_unique(&mut found.ocsps, ocsps.cloned().collect());
                merge_unique(&mut found.crls, crls.cloned().collect());
            }
        }
    }
    if !missing.is_empty() {
        return Err(Error::Ltv(format!("no revocation data for {}", missing.join("; "))));
    }
    Ok(CarriedValidation {
        certs: found.certs.into_iter().filter(|c| !carried.certs.contains(c)).collect(),
        ocsps: found.ocsps.into_iter().filter(|o| !carried.ocsps.contains(o)).collect(),
        crls: found.crls.into_iter().filter(|c| !carried.crls.contains(c)).collect(),
    })
}

pub(crate) fn merge_unique(into: &mut Vec<Vec<u8>>, items: Vec<Vec<u8>>) {
    for item in items {
        if !into.contains(&item) {
            into.push(item);
        }
    }
}
