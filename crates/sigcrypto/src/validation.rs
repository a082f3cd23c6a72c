//! The result of validating one signature as ETSI EN 319 102-1 states it: a main indication
//! (TOTAL-PASSED, TOTAL-FAILED, INDETERMINATE) and a sub-indication that says why, decided at
//! the *best signature time*: the earliest time a trusted time-stamp proves the signature
//! existed (its proof of existence, POE), or the validation time when there is none.
//!
//! What a POE changes: a certificate revoked or expired *after* the time-stamped signing does
//! not undo the signature (TOTAL-PASSED); revoked *before* it, the signature fails (REVOKED);
//! without a POE nobody can tell which came first (INDETERMINATE, `*_NO_POE`).
//!
//! Revocation is judged from what the document carries (a PDF's DSS, the CMS's own revocation
//! data): the verifier never fetches from addresses a file names (an uploaded file must not make
//! the service call out). A certificate that names where its status is published (OCSP, CRL)
//! but whose status the file does not carry gets INDETERMINATE / TRY_LATER, as the standard
//! asks; one that names no source cannot be revoked publicly and is not held back by it.

use serde::{Deserialize, Serialize};

/// The main indication (EN 319 102-1 §5.1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Indication {
    #[serde(rename = "TOTAL-PASSED")]
    TotalPassed,
    #[serde(rename = "TOTAL-FAILED")]
    TotalFailed,
    #[default]
    #[serde(rename = "INDETERMINATE")]
    Indeterminate,
}

/// Why (EN 319 102-1 §5.1.3, table 6): the sub-indications this verifier can establish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SubIndication {
    /// The signature is not built as its format requires (a broken ByteRange, a CMS without
    /// its signed attributes).
    FormatFailure,
    /// The signed data's digest does not match: the signed bytes changed.
    HashFailure,
    /// The signature value does not verify with the signer's key.
    SigCryptoFailure,
    /// The signer's certificate was revoked before the best signature time.
    Revoked,
    /// The signer's certificate is revoked and no POE shows the signature came first.
    RevokedNoPoe,
    /// The signature was time-stamped after the signer's certificate expired.
    Expired,
    /// The signature was time-stamped before the signer's certificate was valid.
    NotYetValid,
    /// Outside the certificate's validity at the validation time, and no POE within it.
    OutOfBoundsNoPoe,
    /// No path from the signer's certificate to a trusted anchor.
    NoCertificateChainFound,
    /// The certificate in the signature cannot be found.
    NoSigningCertificateFound,
    /// The chain does not meet a constraint of its use (a time-stamp token whose certificate
    /// is not for time-stamping).
    ChainConstraintsFailure,
    /// The certificate names where its status is published, and the file does not carry it.
    TryLater,
}

impl SubIndication {
    /// One sentence for people.
    pub fn explain(self) -> &'static str {
        match self {
            SubIndication::FormatFailure => "the signature is not built as its format requires",
            SubIndication::HashFailure => "the signed data changed after signing",
            SubIndication::SigCryptoFailure => "the signature value does not verify with the signer's key",
            SubIndication::Revoked => "the signer's certificate was revoked before the signature was made",
            SubIndication::RevokedNoPoe => {
                "the signer's certificate is revoked, and no time-stamp proves the signature was made before"
            }
            SubIndication::Expired => "the signature was time-stamped after the signer's certificate expired",
            SubIndication::NotYetValid => "the signature was time-stamped before the signer's certificate became valid",
            SubIndication::OutOfBoundsNoPoe => {
                "the signer's certificate is not valid now, and no time-stamp proves the signature was made while it was"
            }
            SubIndication::NoCertificateChainFound => "the signer's certificate does not lead to a trusted authority",
            SubIndication::NoSigningCertificateFound => "the signer's certificate is not in the signature",
            SubIndication::ChainConstraintsFailure => "the certificate is not one for this use",
            SubIndication::TryLater => {
                "the document does not carry the signer's certificate status (revocation data), so it could not be checked"
            }
        }
    }
}

/// What the signer's certificate's status is, from the revocation data the file carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum CertificateStatus {
    /// An OCSP answer or CRL from the issuer says it is not revoked.
    Good,
    /// Revoked at this time (UNIX seconds).
    Revoked { at: u64 },
    /// The certificate names an OCSP responder or CRL, and the file carries no answer from it.
    NotCarried,
    /// The certificate names no place its status is published.
    NoSource,
}

/// The signing certificate's state as far as verification got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certificate {
    /// The signature names no certificate that is present.
    Missing,
    /// No path to a trusted anchor, at any time within its validity.
    Untrusted,
    /// A path to a trusted anchor: valid from `not_before` to `not_after` (UNIX seconds).
    Trusted { not_before: u64, not_after: u64, status: CertificateStatus },
}

/// What verification established about one signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    pub format_ok: bool,
    pub hash_ok: bool,
    pub signature_value_ok: bool,
    pub certificate: Certificate,
    /// The time a trusted, intact signature time-stamp proves (UNIX seconds).
    pub poe: Option<u64>,
    /// The validation time (UNIX seconds).
    pub now: u64,
}

/// The indication for `facts` (EN 319 102-1 §5.3, basic signature validation, with the
/// time-stamp's POE as in §5.5).
pub fn indicate(facts: &Facts) -> (Indication, Option<SubIndication>) {
    use Indication::{Indeterminate, TotalFailed, TotalPassed};
    let failed = |sub| (TotalFailed, Some(sub));
    let undecided = |sub| (Indeterminate, Some(sub));
    if !facts.format_ok {
        return failed(SubIndication::FormatFailure);
    }
    if !facts.hash_ok {
        return failed(SubIndication::HashFailure);
    }
    if !facts.signature_value_ok {
        return failed(SubIndication::SigCryptoFailure);
    }
    let (not_before, not_after, status) = match facts.certificate {
        Certificate::Missing => return undecided(SubIndication::NoSigningCertificateFound),
        Certificate::Untrusted => return undecided(SubIndication::NoCertificateChainFound),
        Certificate::Trusted { not_before, not_after, status } => (not_before, not_after, status),
    };
    let best_time = facts.poe.unwrap_or(facts.now);
    if let CertificateStatus::Revoked { at } = status {
        match facts.poe {
            Some(poe) if poe < at => {}
            Some(_) => return failed(SubIndication::Revoked),
            None => return undecided(SubIndication::RevokedNoPoe),
        }
    }
    if best_time < not_before {
        return match facts.poe {
            Some(_) => failed(SubIndication::NotYetValid),
            None => undecided(SubIndication::OutOfBoundsNoPoe),
        };
    }
    if best_time > not_after {
        return match facts.poe {
            Some(_) => failed(SubIndication::Expired),
            None => undecided(SubIndication::OutOfBoundsNoPoe),
        };
    }
    if status == CertificateStatus::NotCarried {
        return undecided(SubIndication::TryLater);
    }
    (TotalPassed, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIGNED: u64 = 1_000_000;
    const DAY: u64 = 86_400;

    fn facts(status: CertificateStatus, poe: Option<u64>, now: u64) -> Facts {
        Facts {
            format_ok: true,
            hash_ok: true,
            signature_value_ok: true,
            certificate: Certificate::Trusted { not_before: SIGNED - DAY, not_after: SIGNED + DAY, status },
            poe,
            now,
        }
    }

    fn of(facts: Facts) -> (Indication, Option<SubIndication>) {
        indicate(&facts)
    }

    #[test]
    fn revocation_is_judged_at_the_time_stamp() {
        use CertificateStatus::Revoked;
        let passed = (Indication::TotalPassed, None);
        let after = Revoked { at: SIGNED + 60 };
        let before = Revoked { at: SIGNED - 60 };
        assert_eq!(of(facts(after, Some(SIGNED), SIGNED + 120)), passed, "revoked after a time-stamped signing");
        assert_eq!(
            of(facts(before, Some(SIGNED), SIGNED + 120)),
            (Indication::TotalFailed, Some(SubIndication::Revoked)),
            "revoked before it"
        );
        assert_eq!(
            of(facts(after, None, SIGNED + 120)),
            (Indication::Indeterminate, Some(SubIndication::RevokedNoPoe)),
            "revoked, and no time-stamp says the signature came first"
        );
    }

    #[test]
    fn expiry_is_judged_at_the_time_stamp() {
        use CertificateStatus::Good;
        let later = SIGNED + 30 * DAY;
        assert_eq!(of(facts(Good, Some(SIGNED), later)), (Indication::TotalPassed, None), "expired after");
        assert_eq!(
            of(facts(Good, None, later)),
            (Indication::Indeterminate, Some(SubIndication::OutOfBoundsNoPoe)),
            "expired, no time-stamp"
        );
        assert_eq!(
            of(facts(Good, Some(SIGNED + 2 * DAY), later)),
            (Indication::TotalFailed, Some(SubIndication::Expired)),
            "time-stamped after expiry"
        );
        assert_eq!(
            of(facts(Good, Some(SIGNED - 2 * DAY), later)),
            (Indication::TotalFailed, Some(SubIndication::NotYetValid)),
            "time-stamped before the certificate existed"
        );
    }

    #[test]
    fn status_the_file_does_not_carry_is_indeterminate_unless_none_is_published() {
        assert_eq!(
            of(facts(CertificateStatus::NotCarried, Some(SIGNED), SIGNED)),
            (Indication::Indeterminate, Some(SubIndication::TryLater))
        );
        assert_eq!(of(facts(CertificateStatus::NoSource, None, SIGNED)), (Indication::TotalPassed, None));
    }

    #[test]
    fn integrity_and_trust_come_first() {
        let good = facts(CertificateStatus::Good, Some(SIGNED), SIGNED);
        let failed = |sub| (Indication::TotalFailed, Some(sub));
        assert_eq!(of(Facts { format_ok: false, ..good }), failed(SubIndication::FormatFailure));
        assert_eq!(of(Facts { hash_ok: false, ..good }), failed(SubIndication::HashFailure));
        assert_eq!(of(Facts { signature_value_ok: false, ..good }), failed(SubIndication::SigCryptoFailure));
        assert_eq!(
            of(Facts { certificate: Certificate::Untrusted, ..good }),
            (Indication::Indeterminate, Some(SubIndication::NoCertificateChainFound))
        );
        assert_eq!(
            of(Facts { certificate: Certificate::Missing, ..good }),
            (Indication::Indeterminate, Some(SubIndication::NoSigningCertificateFound))
        );
    }
}
