//! The completion certificate: one PDF with every event, signer, IP, time and document hash
//! of the workflow (the hash chain and its verification included), with each document's
//! final signed file attached unchanged, sealed with the tenant's certificate. It is also the merged
//! download (`isMerged`): all documents in one PDF, every signature still valid inside it.

use signet_blob::BlobKey;
use signet_domain::Error;
use signet_domain::Zone;
use signet_domain::audit::{AuditEntry, Party, WorkflowEventKind, verify_chain};
use signet_domain::workflow::{DocumentState, SignatoryState};
use signet_pdf::compose::{Attachment, Block, compose_report};
use signet_signing::{PadesLevel, PdfSignOptions};
use signet_store::{DocumentRow, SignatoryRow, WorkflowRow};

use crate::Services;
use crate::platform::heavy::Share;

/// An instant to the second in the organisation's zone, the zone named; `-` for none.
fn when(zone: Zone, millis: Option<i64>) -> String {
    millis.map(|m| zone.format_seconds(m)).unwrap_or_else(|| "-".into())
}

/// The certificate of `workflow` as it stands now, sealed with the tenant's certificate.
pub async fn certificate_pdf(state: &Services, workflow: &WorkflowRow) -> Result<Vec<u8>, Error> {
    let tenant = state.store.tenant_name(workflow.tenant_id).await?.unwrap_or_default();
    let documents: Vec<_> = state
        .store
        .workflow_documents(workflow)
        .await?
        .into_iter()
        .filter(|d| d.state != DocumentState::Deleted)
        .collect();
    let signatories = state.store.signatories(workflow).await?;
    let events = state.store.workflow_events(workflow).await?;
    let zone = crate::people::organisation::zone_of(state, workflow.tenant_id).await;
    let sender = sender_name(state, workflow).await?;
    let mut blocks = vec![summary_block(workflow, &tenant, &sender, &events, zone), Block::Heading("Documents".into())];
    let mut attachments = Vec::new();
    for (i, doc) in documents.iter().enumerate() {
        blocks.push(document_block(i, doc));
        attachments.push(signed_file(state, i, doc).await?);
    }
    blocks.push(Block::Heading("Signatories".into()));
    blocks.extend(signatories.iter().map(|s| signatory_block(s, &events, zone)));
    blocks.push(Block::Heading("Events (hash-chained)".into()));
    blocks.push(Block::Mono(events.iter().map(|e| event_line(e, zone)).collect()));
    blocks.push(Block::Paragraph(
        "Each event's hash is SHA-256 over the workflow id, its sequence number, time, actor, action, target, \
         address, detail and the previous event's hash; the signed documents are attached to this file unchanged."
            .into(),
    ));
    let title = format!("Completion certificate: {}", workflow.name);
    let pdf = compose_report(&title, &blocks, &attachments);
    seal(state, workflow, pdf, format!("Completion certificate of workflow {}", workflow.id)).await
}

/// Who sent the workflow, by name (else address), or the reference it was recorded under.
async fn sender_name(state: &Services, workflow: &WorkflowRow) -> Result<String, Error> {
    let id = match Party::parse(&workflow.created_by) {
        Party::User(id) | Party::Client(id) => id,
        _ => return Ok(workflow.created_by.clone()),
    };
    let names = state.store.principal_names(workflow.tenant_id, &[id]).await?;
    Ok(names.into_iter().next().map_or_else(|| workflow.created_by.clone(), |(_, name)| name))
}

fn summary_block(workflow: &WorkflowRow, tenant: &str, sender: &str, events: &[AuditEntry], zone: Zone) -> Block {
    let chain = match verify_chain(workflow.id.get(), events) {
        Ok(()) => format!("verified: {} events, head {}", events.len(), events.last().map_or("-", |e| e.hash.as_str())),
        Err(broken) => format!("BROKEN at event {}: {}", broken.seq, broken.reason),
    };
    Block::KeyValues(vec![
        ("Workflow".into(), format!("{} (id {})", workflow.name, workflow.id)),
        ("Sent by".into(), format!("{sender}, {tenant}")),
        ("Reference".into(), workflow.reference_no.clone().unwrap_or_else(|| "-".into())),
        ("State".into(), workflow.state.to_string()),
        ("Created".into(), when(zone, Some(workflow.created_at))),
        ("Completed".into(), when(zone, workflow.completed_at)),
        ("Event chain".into(), chain),
    ])
}

fn document_block(i: usize, doc: &DocumentRow) -> Block {
    Block::KeyValues(vec![
        (
            format!("{}. {}", i + 1, doc.name),
            format!("{} page(s), {}, version {}", doc.page_count, doc.state, doc.version),
        ),
        ("SHA-256 as uploaded".into(), doc.original_sha256.clone()),
        ("SHA-256 signed (attached)".into(), doc.current_sha256.clone()),
    ])
}

/// The document's current file (every signature so far), to attach unchanged.
async fn signed_file(state: &Services, i: usize, doc: &DocumentRow) -> Result<Attachment, Error> {
    let key = BlobKey::parse(&doc.current_blob)?;
    let bytes = state.blob.get(&key).await?;
    Ok(Attachment {
        name: format!("{}-{}", i + 1, doc.name),
        description: format!("{} with every signature (SHA-256 {})", doc.name, doc.current_sha256),
        mime: "application/pdf".into(),
        bytes: bytes.to_vec(),
    })
}

fn signatory_block(s: &SignatoryRow, events: &[AuditEntry], zone: Zone) -> Block {
    let signed = events.iter().find(|e| {
        e.workflow_kind() == Some(WorkflowEventKind::SignatorySigned) && e.target == format!("signatory:{}", s.id)
    });
    Block::KeyValues(vec![
        (
            format!("{} <{}>", s.name, s.email),
            format!("signs as number {} in the order: {}", s.signing_order, state_words(s.state)),
        ),
        ("Signed".into(), when(zone, s.signed_at)),
        ("From".into(), signed.and_then(AuditEntry::client_ip).unwrap_or("-").to_string()),
        ("How".into(), signed.map_or_else(|| "-".into(), |e| how_signed(s.method.as_deref(), &e.detail))),
    ])
}

fn state_words(state: SignatoryState) -> &'static str {
    match state {
        SignatoryState::Pending => "waiting for their turn",
        SignatoryState::Notified => "link sent, not yet opened",
        SignatoryState::Viewed => "opened the documents, not signed",
        SignatoryState::Signed => "signed",
        SignatoryState::Declined => "declined",
        SignatoryState::Delegated => "handed the signature on to someone else",
    }
}

/// How a signature was given, in words, from the signatory's method and what was recorded
/// with it (the full record stays in the events below).
fn how_signed(method: Option<&str>, detail: &str) -> String {
    let detail: serde_json::Value = serde_json::from_str(detail).unwrap_or_default();
    let text = |key: &str| detail.get(key).and_then(serde_json::Value::as_str).filter(|v| !v.is_empty());
    let mark = match text("method").or(method) {
        Some("typed") => "a typed name",
        Some("drawn") | Some("draw") => "a drawn signature",
        Some("image") | Some("upload") | Some("uploaded") => "an uploaded signature image",
        Some("aadhaar_esign") => "Aadhaar eSign (a certificate issued for this signature after an Aadhaar OTP)",
        Some("dsc_token") => "their own digital signature certificate on a crypto token",
        Some(other) => other,
        None => "an electronic signature",
    };
    let mut words = vec![mark.to_string()];
    if detail.get("consent").and_then(serde_json::Value::as_bool) == Some(true) {
        words.push("after agreeing to sign electronically".into());
    }
    if let Some(browser) = text("userAgent") {
        words.push(format!("in the browser \"{browser}\""));
    }
    words.join(", ")
}

fn event_line(e: &AuditEntry, zone: Zone) -> String {
    format!(
        "#{} {} {} {} {} ip={} {} hash={}",
        e.seq,
        when(zone, Some(e.at)),
        e.actor,
        e.action,
        e.target,
        e.client_ip().unwrap_or("-"),
        e.detail,
        e.hash
    )
}

/// Seals a composed report on `workflow` with the tenant's certificate (time-stamped when a TSA
/// is set): the completion certificate, the evidence pack's section 63 certificate.
pub(crate) async fn seal(
    state: &Services,
    workflow: &WorkflowRow,
    pdf: Vec<u8>,
    reason: String,
) -> Result<Vec<u8>, Error> {
    let opts = PdfSignOptions {
        level: if state.config.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: state.config.tsa_url.clone(),
        http: state.config.outbound_http(),
        reason: Some(reason),
        ..PdfSignOptions::default()
    };
    let seal = state.seals.for_tenant(&state.store, workflow.tenant_id).await?;
    state
        .heavy
        .run(Share::Tenant(workflow.tenant_id), move || signet_signing::sign_pdf(&pdf, seal.as_ref(), &opts))
        .await?
        .map_err(Error::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_a_signature_was_given_reads_in_words() {
        let drawn = r#"{"method":"drawn","consent":true,"userAgent":"Mozilla/5.0 (X11)","signatureType":"electronic"}"#;
        assert_eq!(
            how_signed(Some("electronic"), drawn),
            "a drawn signature, after agreeing to sign electronically, in the browser \"Mozilla/5.0 (X11)\""
        );
        assert_eq!(
            how_signed(Some("dsc_token"), r#"{"method":"dsc_token"}"#),
            "their own digital signature certificate on a crypto token"
        );
        assert_eq!(how_signed(None, "not json"), "an electronic signature");
    }
}
