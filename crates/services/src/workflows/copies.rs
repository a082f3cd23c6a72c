//! Everyone's copy: once a workflow is complete, each participant downloads the signed
//! documents and the completion certificate through their own signer link (the link they
//! signed with, at `/copy`) for `copy_link_days`, and the completion e-mail carries them
//! (attached up to `mail_attachment_max_bytes`, else the link only). The link stays the
//! signer's credential (its HMAC, `links`); a participant who handed their place on
//! (delegated) has no copy through it.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::workflow::{DocumentState, SignatoryState, WorkflowState};
use signet_domain::{Error, SignatoryId, now_millis};
use signet_store::{SignatoryRow, WorkflowRow};

use super::session::LinkClosed;
use crate::Services;

/// One file of a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyFile {
    /// The file's name for the download (`Loan agreement.pdf`, `completion-certificate.pdf`).
    pub name: String,
    pub blob: String,
    pub size: u64,
}

/// A participant's copy of a completed workflow.
#[derive(Debug, Clone)]
pub struct Copy {
    pub signatory: SignatoryRow,
    pub workflow: WorkflowRow,
    pub files: Vec<CopyFile>,
    /// Until when (UNIX milliseconds) the link gives the copy.
    pub until: i64,
}

/// Until when a completed workflow's copies can be downloaded.
pub fn copy_until(svc: &Services, workflow: &WorkflowRow) -> i64 {
    let completed = workflow.completed_at.unwrap_or(workflow.updated_at);
    completed.saturating_add(i64::from(svc.config.copy_link_days) * 86_400_000)
}

/// The copy behind a signer link: the link must be the signatory's current one, the workflow
/// complete, the signatory a participant (not one who handed their place on), and the copy
/// window open.
pub async fn open_copy(svc: &Services, id: SignatoryId, secret: &str) -> Result<Copy, LinkClosed> {
    let (signatory, workflow) = super::session::signatory_of_link(svc, id).await?;
    if !svc.link_key.matches(signatory.id.get(), signatory.link_version, secret) {
        return Err(LinkClosed::NotFound);
    }
    if workflow.state() != WorkflowState::Completed || signatory.state() == SignatoryState::Delegated {
        return Err(LinkClosed::NotFound);
    }
    let until = copy_until(svc, &workflow);
    if until < now_millis() {
        return Err(LinkClosed::Gone(super::session::Gone::CopyExpired));
    }
    let files = files_of(svc, &workflow)
        .await
        .map_err(|error| LinkClosed::from_failure(&error, "copy files could not be listed", workflow.id.get()))?;
    Ok(Copy { signatory, workflow, files, until })
}

/// The files of a completed workflow's copy: each signed document as it is now, then the
/// completion certificate (made now if the completion steps have not made it yet).
pub async fn files_of(svc: &Services, workflow: &WorkflowRow) -> Result<Vec<CopyFile>, Error> {
    let workflow = match workflow.certificate_blob {
        Some(_) => workflow.clone(),
        None => {
            super::completion::finish(svc, workflow.tenant_id, workflow.id).await?;
            svc.store.workflow(workflow.tenant_id, workflow.id).await?.unwrap_or_else(|| workflow.clone())
        }
    };
    let mut files = Vec::new();
    for document in svc.store.workflow_documents(&workflow).await? {
        if document.state == DocumentState::Active {
            files.push(file(svc, &pdf_name(&document.name), &document.current_blob).await?);
        }
    }
    if let Some(certificate) = &workflow.certificate_blob {
        files.push(file(svc, "completion-certificate.pdf", certificate).await?);
    }
    Ok(files)
}

async fn file(svc: &Services, name: &str, blob: &str) -> Result<CopyFile, Error> {
    let key = BlobKey::parse(blob).map_err(Error::internal)?;
    let (size, _) = svc.blob.get_stream(&key).await?;
    Ok(CopyFile { name: name.to_string(), blob: blob.to_string(), size })
}

/// A document's name as a PDF file name.
fn pdf_name(name: &str) -> String {
    if name.to_ascii_lowercase().ends_with(".pdf") { name.to_string() } else { format!("{name}.pdf") }
}

/// The bytes of the copy's file `index` (0-based, in the copy's order).
pub async fn copy_file(svc: &Services, copy: &Copy, index: usize) -> Result<(String, Bytes), LinkClosed> {
    let file = copy.files.get(index).ok_or(LinkClosed::NotFound)?;
    let key = BlobKey::parse(&file.blob).map_err(|_| LinkClosed::Broken)?;
    let bytes = svc
        .blob
        .get(&key)
        .await
        .map_err(|error| LinkClosed::from_blob(error, "copy file could not be read", copy.workflow.id.get()))?;
    Ok((file.name.clone(), bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_names_become_pdf_file_names() {
        assert_eq!(pdf_name("Loan agreement"), "Loan agreement.pdf");
        assert_eq!(pdf_name("Lease.PDF"), "Lease.PDF");
    }
}
