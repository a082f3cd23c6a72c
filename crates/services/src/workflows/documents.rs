//! Documents for workflows: the checks an uploaded file passes before anything is stored
//! (base64, name, a PDF that Signet can show and sign), storing it (file first, then the
//! row), and finding a workflow's document for download.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::{DocumentId, Error, ErrorCode, FieldErrors, TenantId, WorkflowId};
use signet_store::{DocumentRow, NewDocument, WorkflowRow};

use crate::Services;
use crate::platform::heavy::Share;

/// Most documents in one bulk upload.
pub const MAX_BULK_DOCUMENTS: usize = 20;
/// Most pages a document may have.
pub const MAX_PAGES: usize = 2000;

/// A document checked and ready to store.
pub struct CheckedPdf {
    pub name: String,
    pub bytes: Vec<u8>,
    pub pages: i64,
    pub sha256: String,
}

/// One file to upload, as the client sent it; `prefix` names its place in the request
/// (`documents[2].`) in errors.
pub struct Upload {
    pub prefix: String,
    pub name: Option<String>,
    pub data: Option<String>,
    pub reference_no: Option<String>,
    pub category_id: Option<i64>,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bytes).as_ref())
}

/// Decodes base64 file data within `limit` bytes; `field` names the field in errors.
pub fn decode_base64(field: &str, data: Option<&str>, limit: usize) -> Result<Vec<u8>, Error> {
    let data = data.map(str::trim).filter(|d| !d.is_empty()).ok_or_else(|| Error::field(field, "is required"))?;
    let data = data.split_once("base64,").map_or(data, |(_, rest)| rest);
    if data.len() / 4 * 3 > limit + 3 {
        return Err(Error::field(field, format!("the file is larger than {limit} bytes")));
    }
    let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = STANDARD.decode(compact).map_err(|_| Error::field(field, "is not valid base64"))?;
    if bytes.len() > limit {
        return Err(Error::field(field, format!("the file is larger than {limit} bytes")));
    }
    Ok(bytes)
}

/// Checks a document name: trimmed, 1-200 characters, no control characters or slashes.
pub fn document_name(field: &str, name: Option<&str>, default: &str) -> Result<String, Error> {
    let name = name.map(str::trim).filter(|n| !n.is_empty()).unwrap_or(default);
    if name.chars().count() > 200 || name.chars().any(|c| c.is_control() || c == '/' || c == '\\') {
        return Err(Error::field(field, "must be at most 200 characters without control characters or slashes"));
    }
    Ok(name.to_string())
}

/// A PDF that our signer can sign: it parses, is not encrypted and has at most MAX_PAGES pages.
pub fn check_pdf(field: &str, name: String, bytes: Vec<u8>) -> Result<CheckedPdf, Error> {
    if !bytes.starts_with(b"%PDF-") && !bytes.windows(5).take(1024).any(|w| w == b"%PDF-") {
        return Err(Error::field(field, "is not a PDF document"));
    }
    let summary =
        signet_pdf::inspect_upload(&bytes).map_err(|e| Error::field(field, format!("is not a usable PDF: {e}")))?;
    if summary.pages == 0 || summary.pages > MAX_PAGES {
        return Err(Error::field(field, format!("must have 1 to {MAX_PAGES} pages")));
    }
    let sha256 = sha256_hex(&bytes);
    Ok(CheckedPdf { name, bytes, pages: summary.pages as i64, sha256 })
}

fn check_upload(upload: &Upload, limit: usize) -> Result<CheckedPdf, Error> {
    let prefix = &upload.prefix;
    let name = document_name(&format!("{prefix}documentName"), upload.name.as_deref(), "document.pdf")?;
    let field = format!("{prefix}fileData");
    let bytes = decode_base64(&field, upload.data.as_deref(), limit)?;
    let checked = check_pdf(&field, name, bytes)?;
    if let Some(reference) = &upload.reference_no
        && reference.chars().count() > 200
    {
        return Err(Error::field(&format!("{prefix}referenceNo"), "must be at most 200 characters"));
    }
    Ok(checked)
}

/// Stores a checked document: the blob first, then the row (a failed row removes the blob).
pub async fn store_document(
    svc: &Services,
    tenant_id: TenantId,
    actor: &Actor,
    checked: CheckedPdf,
    category_id: Option<i64>,
    reference_no: Option<&str>,
) -> Result<DocumentRow, Error> {
    let file = format!("original-{}.pdf", crate::platform::secrets::random_token(12));
    let key = BlobKey::new(["tenant", &tenant_id.to_string(), "uploads", &file])?;
    let size = checked.bytes.len() as i64;
    svc.blob.put(&key, Bytes::from(checked.bytes)).await?;
    let new = NewDocument {
        tenant_id,
        name: &checked.name,
        category_id,
        reference_no,
        blob_key: key.as_str(),
        sha256: &checked.sha256,
        size_bytes: size,
        page_count: checked.pages,
    };
    match svc.store.insert_document(&new, actor).await {
        Ok(row) => Ok(row),
        Err(error) => {
            let _ = svc.blob.delete(&key).await;
            Err(error)
        }
    }
}

/// Uploads one document or several, all or nothing: every file is checked (off the executor)
/// and every problem reported before anything is stored.
pub async fn upload(svc: &Services, caller: &crate::Caller, uploads: Vec<Upload>) -> Result<Vec<DocumentRow>, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let limit = svc.config.max_body_bytes;
    let uploads = std::sync::Arc::new(uploads);
    let mut errors = FieldErrors::new();
    let mut checked = Vec::with_capacity(uploads.len());
    for i in 0..uploads.len() {
        let all = uploads.clone();
        match svc.heavy.run(Share::Tenant(tenant_id), move || check_upload(&all[i], limit)).await? {
            Ok(doc) => checked.push((doc, i)),
            Err(Error::Validation(fields)) => errors.extend(fields),
            Err(other) => return Err(other),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let mut stored = Vec::with_capacity(checked.len());
    for (doc, i) in checked {
        let upload = &uploads[i];
        stored.push(
            store_document(svc, tenant_id, actor, doc, upload.category_id, upload.reference_no.as_deref()).await?,
        );
    }
    Ok(stored)
}

/// The longest reference number a download may name (the spec's `DocumentDownloadRequest`).
const MAX_REFERENCE_CHARS: usize = 200;

/// What a download asks for.
pub struct DownloadRequest {
    pub workflow_id: WorkflowId,
    pub reference_no: Option<String>,
    /// 0: the workflow's only document.
    pub document_id: DocumentId,
    pub merged: bool,
}

/// A file to hand out: its name and bytes.
pub struct Download {
    pub file_name: String,
    pub bytes: Bytes,
}

/// The newest version of a workflow's document (every signature so far), or all of them in
/// one PDF (`merged`).
pub async fn download(svc: &Services, caller: &crate::Caller, request: &DownloadRequest) -> Result<Download, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    if request.reference_no.as_deref().is_some_and(|r| r.chars().count() > MAX_REFERENCE_CHARS) {
        return Err(Error::field("referenceNo", format!("must be at most {MAX_REFERENCE_CHARS} characters")));
    }
    let tenant_id = caller.tenant_id;
    let workflow = svc
        .store
        .workflow(tenant_id, request.workflow_id)
        .await?
        .filter(|w| w.state() != WorkflowState::Deleted)
        .ok_or_else(|| Error::not_found("workflow"))?;
    if let Some(reference) = &request.reference_no
        && workflow.reference_no.as_deref() != Some(reference.as_str())
    {
        return Err(Error::not_found("workflow"));
    }
    if request.merged {
        let bytes = merged_pdf(svc, &workflow).await?;
        return Ok(Download { file_name: format!("workflow-{}.pdf", workflow.id), bytes: Bytes::from(bytes) });
    }
    let documents: Vec<DocumentRow> = svc
        .store
        .workflow_documents(&workflow)
        .await?
        .into_iter()
        .filter(|d| d.state != DocumentState::Deleted)
        .collect();
    let doc = match request.document_id.get() {
        0 if documents.len() == 1 => documents.into_iter().next(),
        0 => {
            return Err(Error::rejected(
                ErrorCode::StateConflict,
                "the workflow has several documents: give documentId or isMerged",
            ));
        }
        id => documents.into_iter().find(|d| d.id.get() == id),
    }
    .ok_or_else(|| Error::not_found("document"))?;
    let key = BlobKey::parse(&doc.current_blob)?;
    let bytes = svc.blob.get(&key).await?;
    Ok(Download { file_name: doc.name, bytes })
}

/// All documents of a workflow in one PDF: the completion certificate with each signed file
/// attached unchanged (the kept one once the workflow is complete, else the state so far).
pub async fn merged_pdf(svc: &Services, workflow: &WorkflowRow) -> Result<Vec<u8>, Error> {
    if let Some(key) = workflow.certificate_blob.as_deref().and_then(|k| BlobKey::parse(k).ok()) {
        return Ok(svc.blob.get(&key).await?.to_vec());
    }
    crate::workflows::certificate::certificate_pdf(svc, workflow).await
}

/// Keeps a checked PDF the caller uploads to send (sending workflows): it waits, unplaced,
/// until a workflow takes it.
pub async fn keep(svc: &Services, caller: &crate::Caller, checked: CheckedPdf) -> Result<DocumentRow, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    store_document(svc, caller.tenant_id, &caller.actor, checked, None, None).await
}

/// A document the caller's tenant uploaded and has not yet put in a workflow (being placed
/// on the send screen), with its bytes (sending workflows); any other reads as missing.
pub async fn staged(svc: &Services, caller: &crate::Caller, id: DocumentId) -> Result<(DocumentRow, Bytes), Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let row = svc
        .store
        .document(caller.tenant_id, id)
        .await?
        .filter(|d| d.workflow_id.is_none())
        .ok_or_else(|| Error::not_found("document"))?;
    let bytes = svc.blob.get(&BlobKey::parse(&row.current_blob)?).await?;
    Ok((row, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_names_are_checked() {
        assert!(decode_base64("fileData", None, 10).is_err());
        assert!(decode_base64("fileData", Some("%%%"), 10).is_err());
        assert_eq!(decode_base64("fileData", Some("data:application/pdf;base64,QUJD"), 10).ok(), Some(b"ABC".to_vec()));
        assert!(decode_base64("fileData", Some(&"QUJD".repeat(100)), 10).is_err(), "over the limit");
        assert!(document_name("n", Some("../etc/passwd"), "d.pdf").is_err());
        assert_eq!(document_name("n", None, "d.pdf").ok().as_deref(), Some("d.pdf"));
        assert!(check_pdf("f", "x".into(), b"hello".to_vec()).is_err());
    }
}
