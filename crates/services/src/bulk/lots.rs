//! Lots (docs/bulk.md): a set of workflows whose documents one signer of the tenant signs at
//! once, such as a credit officer's day of sanction letters. Signing a lot (`BulkSignInput`)
//! is one consent and one signature image from the signer, applied in a background job to
//! every workflow as its own signature; a workflow that cannot be signed (cancelled, not yet
//! the signer's turn, signed elsewhere) is reported and the others go on.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::access::Permission;
use signet_domain::audit::Actor;
use signet_domain::job::BulkKind;
use signet_domain::workflow::{SignatoryState, WorkflowState};
use signet_domain::{Error, ErrorCode, FieldErrors, LotId, PrincipalId, WorkflowId};
use signet_store::{BulkItemRow, BulkJobRow, LotRow, NewBulkJob, UserFilter, UserRow, UserSort, WorkflowRow};

use super::{JobStatus, Outcome, new_public_id, status};
use crate::gateway::seal::Mark;
use crate::workflows::session::SignerSession;
use crate::{Caller, Services};

/// Most workflows in one lot.
pub const MAX_LOT_WORKFLOWS: usize = 1000;
/// Longest lot name and reviewer comment.
pub const MAX_NAME_CHARS: usize = 200;
pub const MAX_COMMENT_CHARS: usize = 500;
/// Largest signature image.
pub const MAX_IMAGE_BYTES: usize = 1024 * 1024;

/// A lot and its workflows.
pub struct Lot {
    pub row: LotRow,
    pub workflow_ids: Vec<WorkflowId>,
}

impl Lot {
    /// The public id of the bulk job that made the lot, if a job made it.
    pub async fn job_public_id(&self, svc: &Services) -> Result<Option<String>, Error> {
        Ok(match self.row.job_id {
            Some(id) => svc.store.bulk_job_by_id(id).await?.map(|j| j.public_id),
            None => None,
        })
    }
}

/// Makes a lot of `workflow_ids` for the user `signer_id`: every workflow must be the
/// tenant's, in progress, with that user's address among its signatories still to sign.
pub async fn create(
    svc: &Services,
    caller: &Caller,
    name: &str,
    signer_id: PrincipalId,
    workflow_ids: &[WorkflowId],
) -> Result<Lot, Error> {
    caller.require(Permission::SendWorkflows)?;
    let mut errors = FieldErrors::new();
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        errors.insert("name".into(), vec![format!("must be 1 to {MAX_NAME_CHARS} characters")]);
    }
    if workflow_ids.is_empty() || workflow_ids.len() > MAX_LOT_WORKFLOWS {
        errors.insert("workflowIds".into(), vec![format!("must name 1 to {MAX_LOT_WORKFLOWS} workflows")]);
    }
    let signer = match svc.store.user(caller.tenant_id, signer_id).await {
        Ok(user) if user.status == signet_domain::user::UserStatus::Active => user.email,
        _ => None,
    };
    let Some(signer_email) = signer else {
        errors.insert("signerUserId".into(), vec!["must be an active user of the organisation with an e-mail".into()]);
        return Err(Error::Validation(errors));
    };
    let mut seen = std::collections::HashSet::new();
    for (i, id) in workflow_ids.iter().enumerate() {
        let field = format!("workflowIds[{i}]");
        if !seen.insert(*id) {
            errors.insert(field, vec!["is named twice".into()]);
            continue;
        }
        if let Err(why) = check_workflow(svc, caller, *id, &signer_email).await? {
            errors.insert(field, vec![why.to_string()]);
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let actor = caller.actor.clone();
    let row = svc.store.create_lot(caller.tenant_id, name, &signer_email, workflow_ids, &actor).await?;
    Ok(Lot { row, workflow_ids: workflow_ids.to_vec() })
}

/// What a lot is made from (the console's lot form): the organisation's active staff with an
/// address (the first 100 by name), and for the one chosen, the workflows in progress whose
/// signature is due from them now (the same as their inbox, at most 200; one later in the order
/// could go in a lot too, but the lot's job would find it not yet theirs to sign).
pub struct LotChoices {
    pub signers: Vec<UserRow>,
    pub signer: Option<UserRow>,
    pub workflows: Vec<WorkflowRow>,
}

pub async fn choices(svc: &Services, caller: &Caller, signer_id: Option<PrincipalId>) -> Result<LotChoices, Error> {
    caller.require(Permission::SendWorkflows)?;
    let filter = UserFilter {
        kind: Some(signet_domain::user::UserKind::Internal),
        statuses: vec![signet_domain::user::UserStatus::Active],
        sort: UserSort::Name,
        ..UserFilter::default()
    };
    let page = signet_domain::paging::Page::parse(Some(1), Some(signet_domain::paging::MAX_PAGE_SIZE))?;
    let (signers, _) = svc.store.users(caller.tenant_id, &filter, page).await?;
    let signers: Vec<UserRow> = signers.into_iter().filter(|u| u.email.is_some()).collect();
    let signer = match signer_id {
        Some(id) => match svc.store.user(caller.tenant_id, id).await {
            Ok(user) if user.status == signet_domain::user::UserStatus::Active && user.email.is_some() => Some(user),
            Ok(_) | Err(Error::NotFound { .. }) => {
                return Err(Error::field("signer", "is not an active user of the organisation with an e-mail"));
            }
            Err(error) => return Err(error),
        },
        None => None,
    };
    let mut workflows: Vec<WorkflowRow> = Vec::new();
    if let Some(email) = signer.as_ref().and_then(|s| s.email.as_deref()) {
        for (_, workflow) in svc.store.due_signatories(caller.tenant_id, email).await? {
            if !workflows.iter().any(|w| w.id == workflow.id) {
                workflows.push(workflow);
            }
        }
    }
    Ok(LotChoices { signers, signer, workflows })
}

/// Why a workflow cannot go in a lot; the text is the workflow's field message.
#[derive(Debug, thiserror::Error)]
enum Unfit {
    #[error("is not a workflow of the organisation")]
    Unknown,
    #[error("is not in progress")]
    NotInProgress,
    #[error("has no signature still to come from {0}")]
    NothingToSign(String),
}

/// Why a workflow cannot go in the lot, if it cannot.
async fn check_workflow(
    svc: &Services,
    caller: &Caller,
    id: WorkflowId,
    signer_email: &str,
) -> Result<Result<(), Unfit>, Error> {
    let Some(workflow) = svc.store.workflow(caller.tenant_id, id).await? else {
        return Ok(Err(Unfit::Unknown));
    };
    if workflow.state() != WorkflowState::InProgress {
        return Ok(Err(Unfit::NotInProgress));
    }
    let signatories = svc.store.signatories(&workflow).await?;
    let waiting = signatories.iter().any(|s| s.email.eq_ignore_ascii_case(signer_email) && !s.state().is_final());
    Ok(if waiting { Ok(()) } else { Err(Unfit::NothingToSign(signer_email.to_string())) })
}

/// A lot of the tenant, for whoever reads its workflows or is the lot's signer; anyone else
/// meets it as a lot that does not exist.
pub async fn get(svc: &Services, caller: &Caller, lot_id: LotId) -> Result<Lot, Error> {
    let lot = find(svc, caller, lot_id).await?;
    let is_its_signer = is_lot_signer(svc, caller, &lot.row).await?;
    if !signet_domain::authority::jobs::may_see_lot(&caller.access, is_its_signer) {
        return Err(Error::not_found("lot"));
    }
    Ok(lot)
}

/// The tenant's lot `lot_id`, whoever asks.
async fn find(svc: &Services, caller: &Caller, lot_id: LotId) -> Result<Lot, Error> {
    let row = svc.store.lot(caller.tenant_id, lot_id).await?.ok_or_else(|| Error::not_found("lot"))?;
    let workflow_ids = svc.store.lot_workflows(row.id).await?;
    Ok(Lot { row, workflow_ids })
}

/// Whether the caller is the user the lot waits for (signed in as themselves).
async fn is_lot_signer(svc: &Services, caller: &Caller, lot: &LotRow) -> Result<bool, Error> {
    if !caller.is_user {
        return Ok(false);
    }
    let email = svc.store.tenant_user_email(caller.tenant_id, caller.principal_id).await?;
    Ok(email.is_some_and(|e| e.eq_ignore_ascii_case(&lot.signer_email)))
}

/// `BulkSignInput`: the lot's signer consents once and gives one signature image; a job signs
/// every workflow of the lot with it. Only the lot's signer may, and a lot is signed once.
pub async fn sign(
    svc: &Services,
    caller: &Caller,
    lot_id: LotId,
    image_base64: &str,
    comments: Option<&str>,
) -> Result<JobStatus, Error> {
    let lot = find(svc, caller, lot_id).await?;
    if !is_lot_signer(svc, caller, &lot.row).await? {
        return Err(Error::rejected(
            ErrorCode::Forbidden,
            "only the lot's signer may sign it, signed in as themselves",
        ));
    }
    let image = check_image(image_base64)?;
    let comments = comments.map(str::trim).filter(|c| !c.is_empty());
    if comments.is_some_and(|c| c.chars().count() > MAX_COMMENT_CHARS) {
        return Err(Error::field("reviewerComments", format!("must be at most {MAX_COMMENT_CHARS} characters")));
    }
    let public_id = new_public_id();
    let key = BlobKey::new(["tenant", &caller.tenant_id.to_string(), "bulk", &public_id, "signature"])?;
    svc.blob.put(&key, Bytes::from(image)).await.map_err(Error::internal)?;
    let items =
        lot.workflow_ids.iter().map(|id| json!({"ref": id.to_string(), "workflowId": id}).to_string()).collect();
    let job = NewBulkJob {
        public_id,
        tenant_id: caller.tenant_id,
        kind: BulkKind::LotSign,
        subscriber_id: caller.principal_id.get(),
        parent_id: lot.row.id.get(),
        input: json!({"lotId": lot.row.id, "signerEmail": lot.row.signer_email, "signatureBlob": key.as_str(),
                      "reviewerComments": comments, "consentedAt": signet_domain::now_millis()}),
        items,
        lot_id: Some(lot.row.id),
    };
    let created = svc.store.create_bulk_job(&job, &caller.actor).await;
    let created = match created {
        Ok(created) => created,
        Err(error) => {
            let _ = svc.blob.delete(&key).await;
            return Err(error);
        }
    };
    status(svc, &created).await
}

fn check_image(data: &str) -> Result<Vec<u8>, Error> {
    let field = "signatureImage";
    if data.trim().is_empty() {
        return Err(Error::field(field, "is required: the signature applied to every document"));
    }
    if data.len() > MAX_IMAGE_BYTES.div_ceil(3) * 4 + 4 {
        return Err(Error::field(field, "must be at most 1 MiB"));
    }
    let bytes = STANDARD.decode(data.trim()).map_err(|_| Error::field(field, "must be base64"))?;
    let is_png = bytes.starts_with(b"\x89PNG\r\n\x1a\n");
    let is_jpeg = bytes.starts_with(&[0xFF, 0xD8, 0xFF]);
    if !is_png && !is_jpeg {
        return Err(Error::field(field, "must be a PNG or JPEG image"));
    }
    Ok(bytes)
}

/// One workflow of a lot: the signer's signature on its documents. Idempotent: a workflow the
/// signer has already signed (by an earlier attempt of this item) counts as signed.
pub async fn sign_item(svc: &Services, job: &BulkJobRow, item: &BulkItemRow) -> Result<Outcome, Error> {
    let input: serde_json::Value = serde_json::from_str(&job.input)?;
    let row: serde_json::Value = serde_json::from_str(&item.input)?;
    let tenant_id = job.tenant_id;
    let id = WorkflowId::from(row["workflowId"].as_i64().ok_or_else(|| Error::internal("no workflow"))?);
    let reference = Some(id.to_string());
    let signer_email = input["signerEmail"].as_str().unwrap_or_default();
    let Some(workflow) = svc.store.workflow(tenant_id, id).await? else {
        return Ok(Outcome::failed(reference, "the workflow no longer exists"));
    };
    let signatories = svc.store.signatories(&workflow).await?;
    let mine = signatories.iter().filter(|s| s.email.eq_ignore_ascii_case(signer_email));
    let Some(signatory) = mine.clone().find(|s| !s.state().is_final()).or_else(|| mine.clone().next_back()) else {
        return Ok(Outcome::failed(reference, "the signer is not a signatory of this workflow"));
    };
    if signatory.state() == SignatoryState::Signed {
        return Ok(Outcome::succeeded(id.to_string(), "signed"));
    }
    if workflow.state() != WorkflowState::InProgress || signatory.state().is_final() {
        return Ok(Outcome::failed(reference, "the workflow is no longer waiting for this signer"));
    }
    if signatory.state() == SignatoryState::Pending {
        return Ok(Outcome::failed(reference, "it is not yet this signer's turn in the workflow"));
    }
    let key = BlobKey::parse(input["signatureBlob"].as_str().unwrap_or_default())?;
    let image = svc.blob.get(&key).await.map_err(Error::internal)?.to_vec();
    let session = SignerSession::new(signatory.clone(), workflow);
    let actor = Actor { id: job.created_by.clone(), ip: None };
    let detail = json!({"method": "image", "via": "lot", "lotId": input["lotId"], "bulkJobId": job.public_id,
                        "reviewerComments": input["reviewerComments"], "consent": true,
                        "consentedAt": input["consentedAt"]});
    match crate::workflows::signer::sign(svc, &session, Mark::Image(image), &actor, detail).await {
        Ok(_) => Ok(Outcome::succeeded(id.to_string(), "signed")),
        Err(failure) => match Error::from(failure) {
            Error::Internal(cause) => Err(Error::Internal(cause)),
            refused => Ok(Outcome::failed(reference, refused.to_string())),
        },
    }
}
