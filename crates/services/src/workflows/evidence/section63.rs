//! The evidence pack's certificate under section 63(4)(c) of the Bharatiya Sakshya Adhiniyam,
//! 2023, pre-filled: Part A with the records (every file of the pack), the system that
//! produced them and their SHA-256 values; the fields of the person who certifies (name,
//! designation, place, date, signature) and the expert's Part B left blank for them. Sealed with
//! the organisation's certificate, so the hash values it states cannot change unseen: it
//! vouches for the manifest's values from outside the manifest.

use signet_domain::Error;
use signet_pdf::compose::{Block, compose_report};
use signet_store::WorkflowRow;

use crate::Services;
use crate::workflows::documents::sha256_hex;

/// What the person who certifies fills in by hand.
const BLANK: &str = "______________________________";

/// The sealed certificate over `files` (name and bytes) of `workflow`'s pack.
pub async fn certificate(
    svc: &Services,
    workflow: &WorkflowRow,
    tenant: &str,
    files: &[(String, Vec<u8>)],
) -> Result<Vec<u8>, Error> {
    let blocks = blocks(workflow, tenant, files);
    let title = "Certificate under section 63(4)(c) of the Bharatiya Sakshya Adhiniyam, 2023";
    let pdf = compose_report(title, &blocks, &[]);
    let reason = format!("Section 63 certificate of the evidence of workflow {}", workflow.id);
    crate::workflows::certificate::seal(svc, workflow, pdf, reason).await
}

fn blocks(workflow: &WorkflowRow, tenant: &str, files: &[(String, Vec<u8>)]) -> Vec<Block> {
    let hashes = files.iter().map(|(name, bytes)| format!("{}  {name} ({} bytes)", sha256_hex(bytes), bytes.len()));
    vec![
        Block::Heading("Part A (to be filled by the party)".into()),
        Block::Paragraph(format!(
            "I, the undersigned, state that the electronic records listed below are the evidence pack of workflow \
             \"{}\" (id {}) of {tenant}, produced by the computer system named below, which was used regularly to \
             create, sign and keep such records in the ordinary course of the activities of {tenant}, and over \
             which I have lawful control.",
            workflow.name, workflow.id
        )),
        Block::KeyValues(vec![
            (
                "Computer system".into(),
                format!("Signet document-signing service, version {}", env!("CARGO_PKG_VERSION")),
            ),
            ("Operated for".into(), format!("{tenant} (organisation id {})", workflow.tenant_id)),
            ("Records".into(), format!("{} files of the evidence pack, listed with their hash values", files.len())),
            ("Hash algorithm".into(), "SHA-256".into()),
        ]),
        Block::Heading("Hash values".into()),
        Block::Mono(hashes.collect()),
        Block::Paragraph(
            "The signed documents carry their signatures; the audit events are linked by their own hashes to the \
             head recorded for the workflow; each file can be checked with `signet evidence verify`."
                .into(),
        ),
        Block::KeyValues(
            ["Name", "Designation", "Contact", "Place", "Date", "Signature"]
                .into_iter()
                .map(|field| (field.to_string(), BLANK.to_string()))
                .collect(),
        ),
        Block::Heading("Part B (to be filled by the expert)".into()),
        Block::Paragraph("Left blank for the expert who examines the records.".into()),
    ]
}
