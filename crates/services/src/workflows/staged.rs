//! Attachments chosen on the console's send form before the workflow exists (the form is
//! followed by the placement screen and the review): the files are checked as the API's
//! attachments are ([`decode_attachments`]: names, sizes, how many), kept under the tenant's
//! staging prefix, and the pages that follow carry their keys. Sending reads them back into the
//! request, so [`initiate`] checks and stores them as it does the API's, and removes the staged
//! copies once the workflow holds its own. A key outside the tenant's staging prefix is refused,
//! so a form cannot name another organisation's file, or anything but a staged one.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::access::Permission;
use signet_domain::{Error, TenantId};
use signet_store::CreatedWorkflow;

use super::initiate::{AttachmentUpload, InitiateWorkflow, decode_attachments, initiate, validate};
use crate::{Caller, Services};

/// The folder of a tenant's staged files.
const STAGED: &str = "staged";

/// What an attachment is for: sent with the workflow, or asked of the signers (the API's
/// `listAttachmentDetails` and `signerAttachmentDetails`).
pub fn kind_of(text: &str) -> Option<&'static str> {
    match text {
        "initiator" => Some("initiator"),
        "requested" => Some("requested"),
        _ => None,
    }
}

/// A file chosen on the form.
pub struct ChosenAttachment {
    /// `initiator` or `requested`.
    pub kind: &'static str,
    pub name: String,
    pub description: Option<String>,
    pub bytes: Vec<u8>,
}

/// A staged attachment, as the pages after the send form carry it.
#[derive(Clone, Debug, Default)]
pub struct StagedAttachment {
    pub kind: String,
    pub name: String,
    pub description: String,
    pub key: String,
    pub size: u64,
}

/// One upload as the request carries it; refusals name it as people read it (`attachment 2`,
/// `requested document 1`: the `number`th of its kind).
fn upload(kind: &'static str, number: usize, name: &str, description: Option<&str>, bytes: &[u8]) -> AttachmentUpload {
    let field = match kind {
        "requested" => format!("requested document {number}"),
        _ => format!("attachment {number}"),
    };
    AttachmentUpload {
        kind,
        name_field: field.clone(),
        data_field: field,
        name: name.to_string(),
        description: description.map(str::to_string).filter(|d| !d.trim().is_empty()),
        data: STANDARD.encode(bytes),
    }
}

/// The number of each item among those of its kind, from 1.
fn numbered<'a>(kinds: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let (mut sent, mut asked) = (0, 0);
    kinds
        .map(|kind| {
            let count = if kind == "requested" { &mut asked } else { &mut sent };
            *count += 1;
            *count
        })
        .collect()
}

/// The uploads of `chosen`, as the API's request would carry them.
pub fn uploads(chosen: &[ChosenAttachment]) -> Vec<AttachmentUpload> {
    let numbers = numbered(chosen.iter().map(|c| c.kind));
    chosen.iter().zip(numbers).map(|(c, n)| upload(c.kind, n, &c.name, c.description.as_deref(), &c.bytes)).collect()
}

/// Checks `chosen` as the API checks its attachments and keeps the files until the workflow is
/// sent; nothing is kept when one is refused.
pub async fn stage(
    svc: &Services,
    caller: &Caller,
    chosen: Vec<ChosenAttachment>,
) -> Result<Vec<StagedAttachment>, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let tenant_id = caller.tenant_id;
    decode_attachments(&uploads(&chosen))?;
    let mut staged: Vec<StagedAttachment> = Vec::with_capacity(chosen.len());
    for c in chosen {
        let file = crate::platform::secrets::random_token(16);
        let key = BlobKey::new(["tenant", &tenant_id.to_string(), STAGED, &file])?;
        let size = c.bytes.len() as u64;
        if let Err(error) = svc.blob.put(&key, Bytes::from(c.bytes)).await {
            remove(svc, tenant_id, &staged).await;
            return Err(Error::internal(error));
        }
        staged.push(StagedAttachment {
            kind: c.kind.to_string(),
            name: c.name.trim().to_string(),
            description: c.description.unwrap_or_default(),
            key: key.as_str().to_string(),
            size,
        });
    }
    Ok(staged)
}

fn gone() -> Error {
    Error::field("attachments", "an attachment is no longer there; choose the files again")
}

/// The key of a staged file of the tenant; anything else is refused.
fn staged_key(tenant_id: TenantId, key: &str) -> Result<BlobKey, Error> {
    let prefix = format!("tenant/{tenant_id}/{STAGED}/");
    let file = key.strip_prefix(&prefix).ok_or_else(gone)?;
    if file.is_empty() || !file.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(gone());
    }
    BlobKey::parse(key).map_err(|_| gone())
}

/// The staged files read back as the request's uploads, in order.
async fn read(
    svc: &Services,
    tenant_id: TenantId,
    staged: &[StagedAttachment],
) -> Result<Vec<AttachmentUpload>, Error> {
    if staged.len() > 20 {
        return Err(Error::field("listAttachmentDetails", "at most 20 attachments in all"));
    }
    let mut uploads = Vec::with_capacity(staged.len());
    let numbers = numbered(staged.iter().map(|s| s.kind.as_str()));
    for (s, i) in staged.iter().zip(numbers) {
        let kind = kind_of(&s.kind).ok_or_else(gone)?;
        let key = staged_key(tenant_id, &s.key)?;
        let bytes = match svc.blob.get(&key).await {
            Ok(bytes) => bytes,
            Err(error) if error.is_not_found() => return Err(gone()),
            Err(error) => return Err(Error::internal(error)),
        };
        uploads.push(upload(kind, i, &s.name, Some(&s.description), &bytes));
    }
    Ok(uploads)
}

async fn remove(svc: &Services, tenant_id: TenantId, staged: &[StagedAttachment]) {
    for key in staged.iter().filter_map(|s| staged_key(tenant_id, &s.key).ok()) {
        if let Err(error) = svc.blob.delete(&key).await {
            tracing::warn!(%error, "a staged attachment could not be removed");
        }
    }
}

/// Starts the workflow of `request` with the staged attachments after its own, as
/// [`initiate`] does for the API; the staged files are removed once the workflow holds its copies.
pub async fn initiate_with(
    svc: &Services,
    caller: &Caller,
    mut request: InitiateWorkflow,
    staged: &[StagedAttachment],
) -> Result<CreatedWorkflow, Error> {
    caller.require(Permission::SendWorkflows)?;
    request.attachments.extend(read(svc, caller.tenant_id, staged).await?);
    let created = initiate(svc, caller, request).await?;
    remove(svc, caller.tenant_id, staged).await;
    Ok(created)
}

/// Every check of [`initiate_with`] that stores nothing (the review before sending).
pub async fn validate_with(
    svc: &Services,
    caller: &Caller,
    mut request: InitiateWorkflow,
    staged: &[StagedAttachment],
) -> Result<(), Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let tenant_id = caller.tenant_id;
    request.attachments.extend(read(svc, tenant_id, staged).await?);
    validate(svc, tenant_id, &request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_tenants_own_staged_files_are_read() {
        let tenant = TenantId::from(7);
        assert!(staged_key(tenant, "tenant/7/staged/AbC-123_x").is_ok());
        for bad in [
            "tenant/8/staged/AbC",
            "tenant/7/attachments/AbC",
            "tenant/7/staged/",
            "tenant/7/staged/../attachments/x",
            "tenant/7/staged/a/b",
            "tenant/70/staged/x",
            "/tenant/7/staged/x",
        ] {
            assert!(staged_key(tenant, bad).is_err(), "{bad}");
        }
    }
}
