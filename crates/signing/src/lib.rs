//! signet-signing: the signing engine facade used by the `signet` CLI and the server.
//!
//! It glues `signet-pdf` (incremental PDF updates, appearances) and `signet-sigcrypto`
//! (keys, CMS, RFC 3161, revocation, XML-DSig) into the operations the product offers:
//!
//! | function | what |
//! |---|---|
//! | [`sign_pdf`] / [`sign_pdf_file`] | PAdES B-B, B-T, B-LT, B-LTA; visible or invisible; approval or certification |
//! | [`prepare_pdf`] / [`complete_pdf`] | deferred (two-phase) PDF signing for tokens and remote providers |
//! | [`sign_data`] / [`sign_hash`] | CMS (CAdES) over data, attached or detached, or over a given SHA-256 |
//! | [`extend_cms`] | a CMS made CAdES B-LT: signature time-stamp, chains and revocation data inside it |
//! | [`sign_xml`] | enveloped XML-DSig, optionally XAdES-BES |
//! | [`extend_xml`] | an XML signature raised to XAdES B-LT (signature time-stamp, certificate and revocation values) |
//! | [`lta_protection`] | until when a PDF's newest document time-stamp protects it (renewal before expiry) |
//! | [`verify_file`] | one report for a PDF, a CMS (DER or PEM) or an XML file |
//! | [`etsi::ValidationReport`] | that report as ETSI TS 119 102-2 XML or JSON |
//!
//! Every private-key operation goes through [`RawSigner`], so local keys, hardware tokens and
//! remote providers plug in the same way.

mod cades;
mod error;
pub mod etsi;
mod lta;
mod pades;
mod validation_data;
mod verify;
mod xades;

pub use cades::{
    CmsExtendOptions, DataSignOptions, extend_cms, parse_sha256, sign_data, sign_hash, sign_xml, timestamp_cms,
};
pub use error::{Error, Result};
pub use lta::{ImprintHash, LtaProtection, ends_with_document_timestamp, lta_protection, tsa_protection};
pub use pades::{
    PadesLevel, PdfSignOptions, PreparedPdf, PreparedRemotePdf, SignatureOrCms, ValidationData, Visible, complete_pdf,
    complete_pdf_with, complete_remote_pdf, extend_pdf, is_pades_baseline, prepare_pdf, prepare_remote_pdf, sign_pdf,
    sign_pdf_file,
};
pub use verify::{FileKind, Report, SignatureReport, TimestampInfo, verify_file, verify_file_with};
pub use xades::{XmlExtendOptions, extend_xml, timestamp_xml};

// The types callers need to fill the options, so they do not depend on the lower crates.
pub use signet_locale::Zone;
pub use signet_pdf::{
    BoxSpec, FieldMark, MarkContent, NameStyle, PageSelection, Position, SubFilter, parse_page_boxes,
};
pub use signet_sigcrypto::HttpConfig;
pub use signet_sigcrypto::signer::{LocalKeySigner, RawSigner};
pub use signet_sigcrypto::validation::{Indication, SubIndication};
