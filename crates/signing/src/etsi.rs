//! ETSI TS 119 102-2 (v1.4.1) signature validation reports: the verifier's [`Report`] in the
//! standard's XML (namespace `http://uri.etsi.org/19102/v1.2.1#`, which later versions keep)
//! and as JSON with the same content, so that a relying party's own tooling (the EU's DSS,
//! pyHanko's bindings of the schema) reads Signet's verdict without knowing Signet.
//!
//! Per signature: its identifier in the file, the validation time and best signature time
//! (the time-stamp's proof of existence), the attributes the verifier saw (claimed signing
//! time, signature and document time-stamps, PDF sub-filter), the signer and their
//! certificate (as a validation object), and the EN 319 102-1 status. A PDF signature whose
//! bytes and certificate pass but whose document was changed in a way Signet's rules forbid, or
//! whose signed content a later addition hides, is INDETERMINATE / SIG_CONSTRAINTS_FAILURE
//! here (the validation constraints are not met), with the reason as additional report data:
//! a reader that only looks at the main indication is not told "passed".

use base64::Engine;
use serde::Serialize;

use signet_sigcrypto::xml::escape;

use crate::verify::{Report, SignatureReport};
use crate::{Error, Indication, Result};

/// The schema's namespace (TS 119 102-2 kept v1.2.1's namespace through v1.4.1).
pub const NAMESPACE: &str = "http://uri.etsi.org/19102/v1.2.1#";
const MAIN_INDICATION: &str = "urn:etsi:019102:mainindication:";
const SUB_INDICATION: &str = "urn:etsi:019102:subindication:";
const CERTIFICATE_OBJECT: &str = "urn:etsi:019102:validationObject:certificate";
const POE_FROM_VALIDATION: &str = "urn:etsi:019102:poetype:validation";
/// Additional report data types (TS 119 102-2 leaves them to the validator).
const CHANGED_AFTER_SIGNING: &str = "urn:signet:verification:changed-after-signing";
const HIDES_SIGNED_CONTENT: &str = "urn:signet:verification:hides-signed-content";
const PROBLEM: &str = "urn:signet:verification:problem";

/// `ValidationReport`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ValidationReport {
    pub signature_validation_report: Vec<SignatureValidationReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub signature_validation_objects: Vec<ValidationObject>,
}

/// `SignatureValidationReportType`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SignatureValidationReport {
    pub signature_identifier: SignatureIdentifier,
    pub validation_time_info: ValidationTimeInfo,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub signature_attributes: Vec<SignatureAttribute>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer_information: Option<SignerInformation>,
    pub signature_validation_status: ValidationStatus,
}

/// `SignatureIdentifierType`: which signature of the file (`DAIdentifier`: the PDF field).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SignatureIdentifier {
    pub id: String,
    pub hash_only: bool,
    pub doc_hash_only: bool,
    #[serde(rename = "DAIdentifier", skip_serializing_if = "Option::is_none")]
    pub da_identifier: Option<String>,
}

/// `ValidationTimeInfoType`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ValidationTimeInfo {
    pub validation_time: String,
    pub best_signature_time: Poe,
}

/// `POEType`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Poe {
    #[serde(rename = "POETime")]
    pub poe_time: String,
    pub type_of_proof: String,
}

/// One element of `SignatureAttributesType` (a choice).
#[derive(Debug, Clone, Serialize)]
pub enum SignatureAttribute {
    /// Claimed by the signer (signed attribute or the PDF's `/M`).
    SigningTime { signed: bool, time: String },
    /// The time a signature time-stamp proves.
    SignatureTimeStamp { time: String },
    /// The time a document time-stamp proves.
    DocTimeStamp { time: String },
    /// The PDF signature dictionary's `/SubFilter`.
    SubFilter { value: String },
}

/// `SignerInformationType`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SignerInformation {
    /// `VOReference` of the certificate's validation object.
    pub signer_certificate: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer: Option<String>,
}

/// `ValidationStatusType`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ValidationStatus {
    pub main_indication: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sub_indication: Vec<String>,
    /// `AdditionalValidationReportData/ReportData`: (type URI, text).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub report_data: Vec<(String, String)>,
}

/// `ValidationObjectType` holding a certificate.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ValidationObject {
    pub id: String,
    pub object_type: String,
    /// DER, base64.
    pub base64: String,
}

impl ValidationReport {
    /// The report on `report`, validated at `validation_time` (RFC 3339, UTC). A file without
    /// signatures has no report in this format (it needs at least one signature).
    pub fn of(report: &Report, validation_time: &str) -> Result<ValidationReport> {
        if report.signatures.is_empty() {
            return Err(Error::InvalidInput("the file has no signatures to report on".into()));
        }
        let mut objects = Vec::new();
        let signatures = report
            .signatures
            .iter()
            .map(|s| {
                let certificate = s.signer_certificate.as_ref().map(|der| {
                    let id = format!("certificate-{}", s.index);
                    objects.push(ValidationObject {
                        id: id.clone(),
                        object_type: CERTIFICATE_OBJECT.into(),
                        base64: base64::engine::general_purpose::STANDARD.encode(der),
                    });
                    id
                });
                signature_report(s, certificate, validation_time)
            })
            .collect();
        Ok(ValidationReport { signature_validation_report: signatures, signature_validation_objects: objects })
    }

    /// [`ValidationReport::of`] validated now.
    pub fn of_now(report: &Report) -> Result<ValidationReport> {
        let now = time::OffsetDateTime::now_utc()
            .replace_nanosecond(0)
            .ok()
            .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
            .unwrap_or_default();
        ValidationReport::of(report, &now)
    }

    /// The XML document (UTF-8, with its declaration).
    pub fn to_xml(&self) -> String {
        let mut x = Xml(String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
        x.element("ValidationReport", &[("xmlns:vr", NAMESPACE)], |x| {
            for s in &self.signature_validation_report {
                s.write(x);
            }
            if !self.signature_validation_objects.is_empty() {
                x.element("SignatureValidationObjects", &[], |x| {
                    for o in &self.signature_validation_objects {
                        x.element("ValidationObject", &[("id", &o.id)], |x| {
                            x.text("ObjectType", &o.object_type);
                            x.element("ValidationObjectRepresentation", &[], |x| x.text("base64", &o.base64));
                        });
                    }
                });
            }
        });
        x.0.push('\n');
        x.0
    }
}

impl SignatureValidationReport {
    fn write(&self, x: &mut Xml) {
        x.element("SignatureValidationReport", &[], |x| {
            let id = &self.signature_identifier;
            x.element("SignatureIdentifier", &[("id", &id.id)], |x| {
                x.text("HashOnly", &id.hash_only.to_string());
                x.text("DocHashOnly", &id.doc_hash_only.to_string());
                if let Some(field) = &id.da_identifier {
                    x.text("DAIdentifier", field);
                }
            });
            let time = &self.validation_time_info;
            x.element("ValidationTimeInfo", &[], |x| {
                x.text("ValidationTime", &time.validation_time);
                x.element("BestSignatureTime", &[], |x| {
                    x.text("POETime", &time.best_signature_time.poe_time);
                    x.text("TypeOfProof", &time.best_signature_time.type_of_proof);
                });
            });
            if !self.signature_attributes.is_empty() {
                x.element("SignatureAttributes", &[], |x| {
                    for attribute in &self.signature_attributes {
                        attribute.write(x);
                    }
                });
            }
            if let Some(signer) = &self.signer_information {
                x.element("SignerInformation", &[], |x| {
                    x.empty("SignerCertificate", &[("VOReference", &signer.signer_certificate)]);
                    if let Some(name) = &signer.signer {
                        x.text("Signer", name);
                    }
                });
            }
            self.signature_validation_status.write(x);
        });
    }
}

impl ValidationStatus {
    fn write(&self, x: &mut Xml) {
        x.element("SignatureValidationStatus", &[], |x| {
            x.text("MainIndication", &self.main_indication);
            for sub in &self.sub_indication {
                x.text("SubIndication", sub);
            }
            if !self.report_data.is_empty() {
                x.element("AssociatedValidationReportData", &[], |x| {
                    x.element("AdditionalValidationReportData", &[], |x| {
                        for (kind, value) in &self.report_data {
                            x.element("ReportData", &[], |x| {
                                x.text("Type", kind);
                                x.text("Value", value);
                            });
                        }
                    });
                });
            }
        });
    }
}

impl SignatureAttribute {
    fn write(&self, x: &mut Xml) {
        match self {
            SignatureAttribute::SigningTime { signed, time } => {
                let signed = signed.to_string();
                x.element("SigningTime", &[("Signed", &signed)], |x| x.text("Time", time));
            }
            SignatureAttribute::SignatureTimeStamp { time } => {
                x.element("SignatureTimeStamp", &[("Signed", "false")], |x| x.text("TimeStampValue", time));
            }
            SignatureAttribute::DocTimeStamp { time } => {
                x.element("DocTimeStamp", &[("Signed", "false")], |x| x.text("TimeStampValue", time));
            }
            SignatureAttribute::SubFilter { value } => {
                x.element("SubFilter", &[("Signed", "true")], |x| x.text("SubFilterElement", value));
            }
        }
    }
}

fn signature_report(
    s: &SignatureReport,
    certificate: Option<String>,
    validation_time: &str,
) -> SignatureValidationReport {
    let proven =
        s.timestamp.as_ref().filter(|t| t.intact && t.trusted).and_then(|t| t.time.as_deref()).and_then(xs_time);
    let mut attributes = Vec::new();
    // A document time-stamp's "signing time" is its token's time, reported as DocTimeStamp.
    if let Some(time) = s.signing_time.as_deref().and_then(xs_time).filter(|_| s.kind != "document-timestamp") {
        // A CMS signed attribute, or a PDF's /M inside the signed dictionary.
        attributes.push(SignatureAttribute::SigningTime { signed: true, time });
    }
    if let Some(time) = s.timestamp.as_ref().and_then(|t| t.time.as_deref()).and_then(xs_time) {
        attributes.push(if s.kind == "document-timestamp" {
            SignatureAttribute::DocTimeStamp { time }
        } else {
            SignatureAttribute::SignatureTimeStamp { time }
        });
    }
    if let Some(value) = &s.sub_filter {
        attributes.push(SignatureAttribute::SubFilter { value: value.trim_start_matches('/').to_string() });
    }
    SignatureValidationReport {
        signature_identifier: SignatureIdentifier {
            id: format!("signature-{}", s.index),
            hash_only: false,
            doc_hash_only: false,
            da_identifier: s.field_name.clone(),
        },
        validation_time_info: ValidationTimeInfo {
            validation_time: validation_time.to_string(),
            best_signature_time: Poe {
                poe_time: proven.unwrap_or_else(|| validation_time.to_string()),
                type_of_proof: POE_FROM_VALIDATION.into(),
            },
        },
        signature_attributes: attributes,
        signer_information: certificate.map(|signer_certificate| SignerInformation {
            signer_certificate,
            signer: s.signer_common_name.clone().or_else(|| s.signer.clone()),
        }),
        signature_validation_status: status(s),
    }
}

/// The EN 319 102-1 status of one signature, with the document's verdict folded in.
fn status(s: &SignatureReport) -> ValidationStatus {
    let named = |value: serde_json::Value| value.as_str().map(str::to_string);
    let (mut main, mut sub) = match s.indication {
        Some(indication) => (indication, s.sub_indication.and_then(|x| serde_json::to_value(x).ok()).and_then(named)),
        // Document time-stamps (and XML signatures checked against a pinned key): from the
        // facts the report has.
        None if s.valid => (Indication::TotalPassed, None),
        None if !s.intact => (Indication::TotalFailed, Some("HASH_FAILURE".to_string())),
        None if !s.trusted => (Indication::Indeterminate, Some("NO_CERTIFICATE_CHAIN_FOUND".to_string())),
        None => (Indication::Indeterminate, None),
    };
    let mut data = Vec::new();
    if !s.modifications_allowed {
        data.extend(s.modifications.iter().map(|m| (CHANGED_AFTER_SIGNING.to_string(), m.clone())));
        if data.is_empty() {
            data.push((CHANGED_AFTER_SIGNING.to_string(), "the document was changed after signing".to_string()));
        }
    }
    data.extend(s.hides_signed_content.iter().map(|c| (HIDES_SIGNED_CONTENT.to_string(), c.clone())));
    if main == Indication::TotalPassed && !data.is_empty() {
        (main, sub) = (Indication::Indeterminate, Some("SIG_CONSTRAINTS_FAILURE".to_string()));
    }
    data.extend(s.errors.iter().map(|e| (PROBLEM.to_string(), e.clone())));
    let main = match main {
        Indication::TotalPassed => "total-passed",
        Indication::TotalFailed => "total-failed",
        Indication::Indeterminate => "indeterminate",
    };
    ValidationStatus {
        main_indication: format!("{MAIN_INDICATION}{main}"),
        sub_indication: sub.map(|x| format!("{SUB_INDICATION}{x}")).into_iter().collect(),
        report_data: data,
    }
}

/// An xs:dateTime from the verifier's RFC 3339 times (`None` for anything else).
fn xs_time(text: &str) -> Option<String> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .ok()
        .and_then(|t| t.to_offset(time::UtcOffset::UTC).format(&time::format_description::well_known::Rfc3339).ok())
}

/// A small writer for the report's elements, all in the `vr` namespace.
struct Xml(String);

impl Xml {
    /// `<vr:name a="v"…>`, what `content` writes, `</vr:name>`.
    fn element(&mut self, name: &str, attributes: &[(&str, &str)], content: impl FnOnce(&mut Xml)) {
        self.start(name, attributes);
        self.0.push('>');
        content(self);
        self.0.push_str(&format!("</vr:{name}>"));
    }

    /// `<vr:name a="v"…/>`.
    fn empty(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.start(name, attributes);
        self.0.push_str("/>");
    }

    fn start(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.0.push_str(&format!("<vr:{name}"));
        for (attribute, value) in attributes {
            self.0.push_str(&format!(" {attribute}=\"{}\"", escape(value)));
        }
    }

    fn text(&mut self, element: &str, value: &str) {
        self.element(element, &[], |x| x.0.push_str(&escape(value)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_control_characters_dropped() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn times_are_normalised_to_utc() {
        assert_eq!(xs_time("2026-11-28T15:45:30+05:30").as_deref(), Some("2026-11-28T10:15:30Z"));
        assert_eq!(xs_time("D:20261128"), None);
    }
}
